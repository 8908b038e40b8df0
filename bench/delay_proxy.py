"""The 100 ms between browser and server of bench/explorer_latency.py's far cases: a TCP proxy on 127.0.0.1 that
holds every chunk a fixed delay in each direction."""
import asyncio
import contextlib
import threading

from coursekit.real_parts.ports import free_port


class DelayProxy:
    """A TCP proxy on 127.0.0.1 (a free port) to 127.0.0.1:`port` that holds every chunk `delay_s` in each direction,
    in order. Runs an asyncio loop in a thread; use as a context manager."""

    def __init__(self, port, delay_s=0.05):
        self.target, self.delay_s, self.port = port, delay_s, free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def _pipe(self, reader, writer):
        queue = asyncio.Queue()

        async def send():
            while (item := await queue.get()) is not None:
                due, chunk = item
                await asyncio.sleep(max(0.0, due - self.loop.time()))
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        with contextlib.suppress(ConnectionError):
            while chunk := await reader.read(65536):
                queue.put_nowait((self.loop.time() + self.delay_s, chunk))
        queue.put_nowait(None)
        with contextlib.suppress(ConnectionError):
            await sender

    async def _connection(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:  # the server has stopped
            client_writer.close()
            return
        await asyncio.gather(self._pipe(client_reader, server_writer), self._pipe(server_reader, client_writer))

    def __enter__(self):
        self.thread.start()
        started = asyncio.run_coroutine_threadsafe(asyncio.start_server(self._connection, "127.0.0.1", self.port),
                                                   self.loop)
        self.server = started.result(timeout=10)
        return self

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
