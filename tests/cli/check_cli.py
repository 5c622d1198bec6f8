#!/usr/bin/env python3
"""Runs one command line of an example or of brasarun and checks how it ended: the exit code, and a
regular expression (re.S) searched in stdout for exit code 0 (--help) and in stderr otherwise (the
error message).

Usage: check_cli.py EXIT_CODE REGEX PROGRAM [ARGS...]
"""
import re
import subprocess
import sys


def main():
    expected, pattern, *command = sys.argv[1:]
    expected = int(expected)
    r = subprocess.run(command, capture_output=True, text=True, timeout=60)
    print(f"$ {' '.join(command)}\nexit code {r.returncode}\n"
          f"--- stdout\n{r.stdout}--- stderr\n{r.stderr}---")
    stream, text = ("stdout", r.stdout) if expected == 0 else ("stderr", r.stderr)
    if r.returncode != expected:
        sys.exit(f"FAIL: expected exit code {expected}, got {r.returncode}")
    if not re.search(pattern, text, re.S):
        sys.exit(f"FAIL: /{pattern}/ not found in {stream}")
    print("ok")


if __name__ == "__main__":
    main()
