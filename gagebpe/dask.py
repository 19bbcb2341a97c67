"""gagebpe on a Dask cluster: worker setup, many files compressed or
decompressed at once, and tokenizer training counted where the data lies.

    from dask.distributed import Client
    import gagebpe.dask
    client = Client("tcp://scheduler:8786")     # or LocalCluster() on one machine
    gagebpe.dask.setup_workers(client)
    outputs = gagebpe.dask.compress_files(client, paths, level=6)

Zarr arrays coded with ``gagebpe.zarr.GageBPECodec`` need nothing here:
workers find the codec through zarr's entry points.  Reading ``.gbpe``
files through fsspec (``dask.bag.read_text``, ``dask.bytes.read_bytes``,
pandas) needs gagebpe imported on every worker, which ``setup_workers``
does.  Needs ``dask.distributed`` (the ``dask`` extra).
"""
import shutil

from ._output import Replacement
from .encoder import levels as _levels

SUFFIX = ".gbpe"
COPY_SIZE = 1 << 22


def _worker_setup():
    """Import gagebpe (registering ``gbpe`` with fsspec when it loads) and
    load the kernels a round trip needs from the cache, once per worker."""
    from . import compress, decompress
    decompress(compress(b"gagebpe worker " * 4096))


def setup_workers(client):
    """Run the worker setup on every worker of ``client`` now and on
    every worker that joins later (a Dask worker plugin)."""
    from distributed import WorkerPlugin

    class GageBPESetup(WorkerPlugin):
        name = "gagebpe-setup"

        def setup(self, worker):
            _worker_setup()

    client.register_plugin(GageBPESetup())


def compress_files(client, paths, *, level=None, block_size=None):
    """Compress each local or shared-filesystem file of ``paths`` to the
    same name plus ``.gbpe`` on the workers of ``client``, keeping the
    inputs; the output paths, in order.  Each output is written under a
    temporary name and renamed into place when complete, so a failure
    leaves no partial file; the first failure is raised here."""
    level = _levels.DEFAULT_LEVEL if level is None else level
    _levels.settings(level)
    futures = client.map(_compress_file, list(paths), level=level, block_size=block_size,
                         pure=False)
    return client.gather(futures)


def decompress_files(client, paths):
    """Decompress each ``.gbpe`` file of ``paths`` to its name without the
    suffix on the workers of ``client``, keeping the inputs, as
    ``compress_files`` writes; the output paths, in order."""
    paths = list(paths)
    for path in paths:
        if not path.endswith(SUFFIX):
            raise ValueError(f"{path}: not a {SUFFIX} file")
    return client.gather(client.map(_decompress_file, paths, pure=False))


def _compress_file(path, level, block_size):
    from ._file import GageBPEFile
    target = path + SUFFIX
    with Replacement(target) as tmp, open(path, "rb") as source, \
            GageBPEFile(tmp, "wb", level=level, block_size=block_size) as out:
        shutil.copyfileobj(source, out, COPY_SIZE)
    return target


def _decompress_file(path):
    from ._file import GageBPEFile
    target = path[:-len(SUFFIX)]
    with Replacement(target) as tmp, GageBPEFile(path, "rb") as source, \
            open(tmp, "wb") as out:
        shutil.copyfileobj(source, out, COPY_SIZE)
    return target


def count_files(client, paths, count):
    """Tokenizer training counts of many text files, made on the workers
    of ``client`` and added up in the order of ``paths``: ``count`` is
    ``ByteBPE.count`` or ``WordBPE.count`` (with its options bound, e.g. by
    ``functools.partial``).  Train once on the result with
    ``train_counts``: the tokenizer is the one training on all the files
    in one process would make."""
    from .tokenizers import merge_counts
    futures = client.map(_count_file, list(paths), count=count, pure=False)
    return merge_counts(client.gather(futures))


def _count_file(path, count):
    with open(path, encoding="utf-8") as f:
        return count(f)
