"""The worker threads batch calls share: one pool per thread count,
started on first use and kept (new threads on every call cost a 4 MB
tokenizer batch about 5 ms of its 65, measured), and dropped in a forked
child, which has none of them.
"""
import os
import threading
from concurrent.futures import ThreadPoolExecutor

_pools = {}  # threads -> ThreadPoolExecutor
_lock = threading.Lock()
os.register_at_fork(after_in_child=_pools.clear)


def pool(threads):
    """The shared pool of ``threads`` threads."""
    with _lock:
        if threads not in _pools:
            _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="gagebpe")
        return _pools[threads]
