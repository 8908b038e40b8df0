import base64

import numpy as np
from IPython.display import HTML, SVG, Javascript, Markdown, display

# A correct function whose cell also displays everything a page could run: none of it may reach a page we make
# (the feedback shows the text of each output and a note), and none of it changes a grade.
PAYLOAD = "document.title='pwned';fetch('http://corpus.payload.invalid/');alert(1)"
PIXEL = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010800000000"
    "3a7e9b550000000a49444154789c636800000082008177cd72b60000000049454e44ae426082")).decode()  # a 1 x 1 grey PNG
display(HTML(f"<script>{PAYLOAD}</script><img src=x onerror=\"{PAYLOAD}\">"))
display(Javascript(PAYLOAD))
display(Markdown(f"<svg onload=\"{PAYLOAD}\"></svg>![x](http://corpus.payload.invalid/pixel.png)"))
display(SVG(f'<svg xmlns="http://www.w3.org/2000/svg" onload="{PAYLOAD}"/>'))
display({"application/vnd.jupyter.widget-view+json": {"model_id": "0" * 32, "version_major": 2, "version_minor": 0},
         "text/plain": "a widget"}, raw=True)
display({"image/png": PIXEL}, metadata={"image/png": {"width": f"1 onload={PAYLOAD}"},
                                        "filenames": {"image/png": "http://corpus.payload.invalid/x.png"}}, raw=True)


def score_gradient(A, G):
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
