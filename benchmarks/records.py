"""The record set the dictionary benchmark runs on: many kinds of small
records, from what this machine has and from seeded generators.

    python benchmarks/records.py benchmarks/out/records

writes, for each kind and record size, ``<kind>-<size>.rec``: the records
one after another, each preceded by its length as a little-endian u32.
``benchmarks/dictionaries.py`` builds the same set in memory.

Each kind is a sequence of units (a log line, a JSON document, a packed
row, a paragraph); a record of about ``size`` bytes is consecutive units
up to that size, a unit longer than twice the size cut into pieces of
it, as a store of records or of chunks would hold them.  The machine's
files are read where they exist (dpkg and apt logs, iso-codes JSON, the
freedesktop MIME XML, translations of many languages, HTML manuals,
/etc configs, Python's own sources and e-mail test messages); every
other kind is generated from a fixed seed, its words drawn from Python's
own documentation, so that the set is the same on every machine that has
the same files.  No kind is tuned for: the set is what a dictionary user
compresses, not what gagebpe does well on.
"""
import argparse
import gettext
import json
import random
import re
import struct
import sys
import sysconfig
from pathlib import Path

SIZES = (64, 256, 1024, 4096)
UNIT_BYTES = 1 << 20  # of each kind, at most
LIB = Path(sysconfig.get_paths()["stdlib"])


def up_to(units, limit=UNIT_BYTES):
    """The first units whose bytes stay within ``limit``."""
    out, total = [], 0
    for unit in units:
        if total + len(unit) > limit:
            break
        if unit:
            out.append(unit)
            total += len(unit)
    return out


def lines_of(paths):
    for path in paths:
        try:
            yield from path.read_bytes().splitlines(True)
        except OSError:
            continue


def words():
    """English words and identifiers from Python's documentation."""
    from pydoc_data.topics import topics
    found = re.findall(r"[A-Za-z][a-z]{2,12}", " ".join(topics.values()))
    return sorted(set(found))


# Kinds read from the machine (an empty list where it has none).

def dpkg_log():
    return up_to(lines_of([Path("/var/log/dpkg.log"), Path("/var/log/apt/history.log"),
                           Path("/var/log/alternatives.log")]))


def iso_codes_json():
    units = []
    for path in sorted(Path("/usr/share/iso-codes/json").glob("iso_*.json")):
        for table in json.loads(path.read_text()).values():
            if isinstance(table, list):
                units += [json.dumps(e, ensure_ascii=False).encode() + b"\n" for e in table]
    return up_to(units)


def mime_xml():
    path = Path("/usr/share/mime/packages/freedesktop.org.xml")
    if not path.exists():
        return []
    text = path.read_bytes()
    return up_to(m.group(0) + b"\n" for m in re.finditer(rb"<mime-type .*?</mime-type>", text,
                                                         re.S))


def translations():
    """Translated messages of many languages, a message per unit."""
    units = []
    for path in sorted(Path("/usr/share/locale").glob("*/LC_MESSAGES/*.mo")):
        try:
            with path.open("rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog
        except Exception:  # a catalog Python cannot read is left out
            continue
        units += [v.encode() + b"\n" for k, v in sorted(catalog.items(), key=str) if k and v]
    random.Random(7).shuffle(units)  # languages mixed, as a multilingual store holds them
    return up_to(units)


def html_manuals():
    paths = sorted(Path("/usr/share/doc").glob("**/*.html"))
    return up_to(lines_of(paths))


def etc_configs():
    paths = sorted(p for p in Path("/etc").glob("**/*.conf") if p.is_file())
    return up_to(line for line in lines_of(paths) if line.strip())


def email_messages():
    paths = sorted((LIB / "test" / "test_email" / "data").glob("msg_*.txt"))
    return up_to(p.read_bytes() for p in paths)


# Kinds every machine has.

def python_sources():
    return up_to(lines_of(sorted(LIB.glob("*.py"))))


def python_prose():
    from pydoc_data.topics import topics
    return up_to(p.encode() + b"\n\n" for _, text in sorted(topics.items())
                 for p in text.split("\n\n"))


# Generated kinds: a fixed seed each, fields drawn as such data's are.

def ip(rng, first=None):
    parts = [first or rng.randint(1, 223), rng.randint(0, 255), rng.randint(0, 255),
             rng.randint(1, 254)]
    return ".".join(map(str, parts))


def web_log(rng, vocab):
    paths = ["/" + "/".join(rng.sample(vocab, rng.randint(1, 3))) for _ in range(400)]
    systems = ["X11; Linux x86_64", "Windows NT 10.0; Win64; x64",
               "Macintosh; Intel Mac OS X 10_15_7"]
    agents = [f"Mozilla/5.0 ({rng.choice(systems)}) {rng.choice(vocab).capitalize()}/"
              f"{rng.randint(1, 120)}.0" for _ in range(30)]
    methods, statuses = ["GET"] * 8 + ["POST", "HEAD"], [200] * 12 + [304, 404, 500, 301]
    t = 1_700_000_000
    for _ in range(40_000):
        t += rng.randint(0, 3)
        yield (f'{ip(rng)} - - [{_stamp(t, "%d/%b/%Y:%H:%M:%S +0000")}] '
               f'"{rng.choice(methods)} {rng.choice(paths)} HTTP/1.1" {rng.choice(statuses)} '
               f'{rng.randint(0, 60000)} "-" "{rng.choice(agents)}"\n').encode()


def syslog(rng, vocab):
    services = [(rng.choice(vocab), rng.randint(100, 30000)) for _ in range(25)]
    t = 1_700_000_000
    for _ in range(40_000):
        t += rng.randint(0, 20)
        name, pid = rng.choice(services)
        msg = " ".join(rng.choice(vocab) for _ in range(rng.randint(3, 12)))
        yield (f"{_stamp(t, '%b %d %H:%M:%S')} host{rng.randint(1, 4)} {name}[{pid}]: "
               f"{rng.choice(['', 'error: ', 'warning: '])}{msg}\n").encode()


def json_api(rng, vocab):
    for n in range(20_000):
        name = f"{rng.choice(vocab)} {rng.choice(vocab)}".title()
        email = (f"{rng.choice(vocab)}{rng.randint(1, 999)}@example."
                 f"{rng.choice(['com', 'org', 'net'])}")
        doc = {"id": 100_000 + n,
               "user": {"name": name, "email": email, "verified": rng.random() < 0.7},
               "created_at": _stamp(1_600_000_000 + rng.randint(0, 10**8), "%Y-%m-%dT%H:%M:%SZ"),
               "tags": rng.sample(vocab, rng.randint(0, 4)),
               "score": round(rng.uniform(0, 100), 2),
               "items": [{"sku": f"{rng.choice(vocab)[:3].upper()}-{rng.randint(1000, 9999)}",
                          "qty": rng.randint(1, 9)} for _ in range(rng.randint(0, 3))]}
        yield json.dumps(doc).encode() + b"\n"


def csv_rows(rng, vocab):
    products = [(rng.choice(vocab).title(), round(rng.uniform(1, 500), 2)) for _ in range(300)]
    yield b"order_id,date,customer,country,product,quantity,unit_price,total\n"
    for n in range(30_000):
        product, price = rng.choice(products)
        qty = rng.randint(1, 20)
        yield (f"{500000 + n},{_stamp(1_650_000_000 + n * 300, '%Y-%m-%d')},"
               f"{rng.choice(vocab).title()} {rng.choice(vocab).title()},"
               f"{rng.choice(['US', 'DE', 'FR', 'JP', 'BR', 'IN', 'PL', 'GB'])},{product},{qty},"
               f"{price:.2f},{price * qty:.2f}\n").encode()


def sql_statements(rng, vocab):
    tables = {rng.choice(vocab): rng.sample(vocab, 5) for _ in range(12)}
    names = sorted(tables)
    for _ in range(30_000):
        table = rng.choice(names)
        cols = tables[table]
        kind, key = rng.random(), rng.randint(0, 10**6)
        if kind < 0.5:
            values = ", ".join(rng.choice([str(rng.randint(0, 10**6)), f"'{rng.choice(vocab)}'",
                                           "NULL"]) for _ in cols)
            yield f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({values});\n".encode()
        elif kind < 0.8:
            yield (f"SELECT {', '.join(rng.sample(cols, 2))} FROM {table} WHERE {cols[0]} = "
                   f"{key} ORDER BY {cols[1]} LIMIT {rng.choice([10, 50, 100])};\n").encode()
        else:
            yield (f"UPDATE {table} SET {cols[2]} = '{rng.choice(vocab)}' WHERE {cols[0]} = "
                   f"{key};\n").encode()


def mail_headers(rng, vocab):
    domains = [f"{rng.choice(vocab)}.{rng.choice(['com', 'org', 'de'])}" for _ in range(40)]
    hosts = [f"mx{rng.randint(1, 9)}.{domain}" for domain in domains]
    t = 1_700_000_000
    for _ in range(8_000):
        t += rng.randint(1, 600)
        date = _stamp(t, "%a, %d %b %Y %H:%M:%S +0000")
        sender, to = (f"{rng.choice(vocab)}.{rng.choice(vocab)}@{rng.choice(domains)}"
                      for _ in "ab")
        hops = "".join(f"Received: from {rng.choice(hosts)} ({rng.choice(hosts)} "
                       f"[{ip(rng, 10)}])\n\tby {rng.choice(hosts)} with ESMTPS id "
                       f"{rng.getrandbits(48):012x}\n\tfor <{to}>; {date}\n"
                       for _ in range(rng.randint(1, 3)))
        yield (f"{hops}Message-ID: <{rng.getrandbits(64):016x}@{rng.choice(domains)}>\n"
               f"Date: {date}\nFrom: {sender}\nTo: {to}\n"
               f"Subject: {' '.join(rng.sample(vocab, rng.randint(2, 7)))}\n"
               "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n").encode()


def ini_configs(rng, vocab):
    def value():
        return rng.choice([str(rng.randint(0, 65535)), rng.choice(["true", "false"]),
                           "/var/lib/" + rng.choice(vocab), rng.choice(vocab)])
    for _ in range(6_000):
        pairs = "".join(f"{rng.choice(vocab)}_{rng.choice(vocab)} = {value()}\n"
                        for _ in range(rng.randint(2, 8)))
        yield f"[{rng.choice(vocab)}]\n{pairs}\n".encode()


def packed_rows(rng, vocab):
    row = struct.Struct("<QHHffffI")  # time, sensor, status, four readings, counter
    t, counters = 1_700_000_000_000, [0] * 64
    levels = [rng.uniform(-40, 40) for _ in range(64)]
    for _ in range(30_000):
        t += rng.randint(0, 2000)
        sensor = rng.randrange(64)
        counters[sensor] += 1
        levels[sensor] += rng.gauss(0, 0.1)
        yield row.pack(t, sensor, rng.choice([0] * 20 + [1, 2]), levels[sensor],
                       round(levels[sensor] * 1.8 + 32, 1), rng.uniform(0, 100), 1013.25 +
                       rng.gauss(0, 5), counters[sensor])


def pdb_atoms(rng, vocab):
    residues = ["ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU",
                "LYS", "MET", "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL"]
    atoms = [("N", "N"), ("CA", "C"), ("C", "C"), ("O", "O"), ("CB", "C"), ("CG", "C")]
    x = y = z = 0.0
    serial = 0
    for res in range(8_000):
        name = rng.choice(residues)
        for atom, element in atoms[:rng.randint(4, 6)]:
            serial += 1
            x, y, z = (v + rng.uniform(-1.5, 1.5) for v in (x, y, z))
            yield (f"ATOM  {serial:5d} {atom:<4s} {name} {'AB'[res // 4000]}{res % 4000 + 1:4d}    "
                   f"{x:8.3f}{y:8.3f}{z:8.3f}{1.0:6.2f}{rng.uniform(5, 60):6.2f}          "
                   f"{element:>2s}\n").encode()


def _stamp(t, fmt):
    import time
    return time.strftime(fmt, time.gmtime(t))


GENERATED = {"web server log": web_log, "syslog": syslog, "JSON API payloads": json_api,
             "CSV rows": csv_rows, "SQL statements": sql_statements,
             "e-mail headers": mail_headers, "INI configs": ini_configs,
             "packed binary rows": packed_rows, "PDB atom records": pdb_atoms}
MACHINE = {"dpkg/apt log": dpkg_log, "iso-codes JSON": iso_codes_json,
           "MIME XML": mime_xml, "translations (many languages)": translations,
           "HTML manuals": html_manuals, "/etc configs": etc_configs,
           "e-mail messages": email_messages, "Python sources": python_sources,
           "English prose (pydoc)": python_prose}


def kinds():
    """``{kind: units}`` of every kind this machine gives (a kind of the
    machine's files it lacks is left out)."""
    vocab = words()
    found = {name: up_to(make(random.Random(n), vocab))
             for n, (name, make) in enumerate(GENERATED.items())}
    for name, read in MACHINE.items():
        units = read()
        if sum(map(len, units)) >= 64 << 10:
            found[name] = units
    return dict(sorted(found.items()))


def records(units, size):
    """``units`` as records of about ``size`` bytes."""
    out, current = [], b""
    for unit in units:
        if len(unit) > 2 * size:
            out += [unit[i:i + size] for i in range(0, len(unit), size)]
            continue
        if current and len(current) + len(unit) > size:
            out.append(current)
            current = b""
        current += unit
    return out + [current] if current else out


def with_copies(sizes, most, only=("",), dictionary_size=64 << 10):
    """``(kind, size, dictionary, test)`` for each kind whose name holds
    one of ``only`` and each of ``sizes`` where the trained dictionary
    takes DICTIONARY_IDS_LZ: a dictionary trained on the first half of the
    records, and at most ``most`` records of the second half."""
    import gagebpe
    for kind, units in kinds().items():
        if not any(text in kind for text in only):
            continue
        for size in sizes:
            found = records(units, size)
            half = len(found) // 2
            dictionary = gagebpe.train_dictionary(found[:half], dictionary_size)
            test = found[half:][:most]
            if dictionary.ids_lz_encoding() is not None and test:
                yield kind, size, dictionary, test


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path, help="directory to write the records into")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for kind, units in kinds().items():
        slug = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
        for size in SIZES:
            found = records(units, size)
            (args.out / f"{slug}-{size}.rec").write_bytes(
                b"".join(struct.pack("<I", len(r)) + r for r in found))
            print(f"{kind:32s} {size:5d} B: {len(found):6d} records", file=sys.stderr)


if __name__ == "__main__":
    main()
