"""Free loopback ports: every server a test or a bench starts takes one, never a fixed port."""
import socket


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
