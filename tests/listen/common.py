"""common.py - what the exporter's load test and fuzzer share."""
import socket

HOST = "127.0.0.1"


def free_port():
    """A TCP port free on HOST now (the kernel's pick)."""
    s = socket.socket()
    s.bind((HOST, 0))
    p = s.getsockname()[1]
    s.close()
    return p
