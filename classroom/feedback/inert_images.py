"""The images a page we make may show: PNG or JPEG, checked to be what their mimetype claims, within caps on their
bytes and on their pixels, read from the image's header (Pillow's `Image.open` reads no pixels) and its chunk
checksums (`verify`, which decodes nothing). Used for output images and Markdown attachments (classroom.preprocessors
.inert_outputs, .inert_markdown)."""
import base64
import binascii
import io
import warnings

from PIL import Image

FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG"}  # the only images kept, by mimetype


def decoded_size(text):
    """The number of bytes the base64 `text` decodes to, without decoding it."""
    text = "".join(str(text).split())
    return len(text) * 3 // 4 - (len(text) - len(text.rstrip("=")))


def checked(mimetype, data, max_bytes, max_pixels):
    """(the image as clean base64, None) when `data` (base64 text) is a PNG or JPEG as `mimetype` says, of at most
    `max_bytes` bytes and `max_pixels` pixels; else (None, why, in words for the student)."""
    if mimetype not in FORMATS:
        return None, f"{mimetype} is not an image kind the feedback shows"
    if not isinstance(data, str):
        return None, f"its {mimetype} data is not text"
    size = decoded_size(data)
    if size > max_bytes:
        return None, f"an image of {size:,} bytes, over the cap of {max_bytes:,}"
    try:
        raw = base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError):
        return None, "an image whose data is not base64"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns of decompression bombs: the caps below decide
            with Image.open(io.BytesIO(raw)) as image:
                kind, (width, height) = image.format, image.size
                image.verify()
    except Image.DecompressionBombError:  # a header claiming so many pixels that Pillow refuses to go on
        return None, f"an image of far more pixels than the cap of {max_pixels:,}"
    except Exception:  # noqa: BLE001 (whatever Pillow raises, the image is not shown)
        return None, f"an image that is not a readable {FORMATS[mimetype]}"
    if kind != FORMATS[mimetype]:
        return None, f"an image labelled {mimetype} that is {kind or 'not an image'}"
    if width * height > max_pixels:
        return None, f"an image of {width:,} x {height:,} pixels, over the cap of {max_pixels:,}"
    return base64.b64encode(raw).decode("ascii"), None
