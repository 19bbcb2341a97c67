"""The priming text of the MIXED_PRIMED coding (docs/FORMAT.md, section
4.13 and Appendix A): what a MIXED_PRIMED block's model learns before the
block, so that a block of a few dozen bytes is coded by a model that
already knows what small files are made of.

It was written for this purpose, from no file of any corpus gagebpe is
measured on: common English words and sentences, a heading, C and Python
code, HTML, log lines and JSON, the kinds of text small files hold.  It
is part of the format: changing a byte of it changes what every
MIXED_PRIMED payload decodes to, so it never changes.
"""

PRIMING_TEXT = rb'''The first thing to know about a small file is that it is mostly made of the
words everyone uses: the, of, and, to, in, is, that, it, for, with, as, on,
was, be, by, at, this, are, from, or, have, an, which, not, but, they, you,
all, their, we, were, can, there, one, has, been, will, would, what, when.
In the beginning, there were only a few of them; but then, as time went on,
people wrote more and more, and each new page said again what had been said
before. "Where is it?" she asked. "It's here," he said, "in the other room."

Chapter 1. Introduction
=======================

This document describes how the program reads its input, writes its output,
and reports an error. See section 2.3 for the details, and the table below
for a summary of the options. Version 1.0 was released on 2024-01-15.

    #include <stdio.h>
    #include <stdlib.h>

    int main(int argc, char *argv[])
    {
        for (int i = 0; i < argc; i++) {
            if (argv[i] == NULL)
                return -1;
            printf("%d: %s\n", i, argv[i]);
        }
        return 0;
    }

def read_config(path, default=None):
    """Return the settings in the file at path, or default if it is empty."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            if not key or key.startswith("#"):
                continue
            self.settings[key] = value
    return self.settings or default

<html>
<head><title>Index of /</title></head>
<body>
<p class="note">Name, Last modified, Size, Description</p>
<a href="https://www.example.com/index.html">Home</a>
</body>
</html>

2025-03-14 09:26:53,589 INFO [main] server.start: listening on port 8080
2025-03-14 09:26:54,002 WARN [pool-2] request GET /api/v1/users?id=42 200 17ms
{"id": 1, "name": "value", "type": "string", "enabled": true, "items": []}
'''
