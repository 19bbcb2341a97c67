"""Outputs written whole or not at all: a file is written under a
temporary name beside its target and becomes the target, synced, only
when complete; on any failure the temporary file is removed.  Both
command lines and ``dask`` write every output file this way.
"""
import os
import secrets

# The temporary files being written, for a signal handler to remove: a
# process killed by a signal runs no ``finally``.
PENDING = set()


class Replacement:
    """A new file beside ``target`` (``path``, made empty, with the mode
    a new file gets), to be written and then ``commit``-ted: synced to
    disk and renamed to ``target``.  As a context manager it gives
    ``path``, commits when the block ends cleanly (unless done already)
    and removes the file when it raises.  Raises ``OSError`` where the
    directory cannot be written, or the file synced or renamed."""

    def __init__(self, target):
        self.target = target
        directory, name = os.path.split(target)
        while True:
            path = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
                break
            except FileExistsError:
                continue
        self.path = path
        self.done = False
        PENDING.add(path)

    def commit(self):
        """Sync the file and rename it to ``target``."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(self.path, self.target)
        self.done = True
        PENDING.discard(self.path)

    def discard(self):
        """Remove the file, if it is still there."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        self.done = True
        PENDING.discard(self.path)

    def __enter__(self):
        return self.path

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            self.discard()
        elif not self.done:
            try:
                self.commit()
            except BaseException:
                self.discard()
                raise
