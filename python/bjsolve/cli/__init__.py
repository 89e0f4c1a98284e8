"""The command line: ``bjsolve COMMAND [flags]`` (also ``python -m bjsolve``).

Each sub-command is a module ``cmd_<name>.py`` defining ``NAME``, ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``, or a row of the table commands' data table
(``table_command.TABLE_COMMANDS``); ``COMMANDS`` lists them in the order ``--help`` shows
them.  Command modules import numpy and the solver inside
``run``, so that ``bjsolve --help`` answers at once.  With no command, ``edge`` runs: the
house edge and the basic-strategy chart.

Exit codes: 0 success, 2 a bad command line or input (one line on stderr), 1 a failure of
the environment (output that cannot be written, a scheduler that does not answer; one
line) or an internal error (one line saying it is a bug; ``BJSOLVE_DEBUG=1`` shows the
traceback), 130 interrupted.  Bad input is what the command line itself refuses
(``UsageError``) and a ValueError or TypeError the library raises with a ``raise``
statement of its own while checking an argument (its convention for bad input); any other
exception, a ValueError from numpy, a kernel or Python's builtins included, is a bug.
"""
from __future__ import annotations

import argparse
import difflib
import importlib
import linecache
import os
import re
import sys
import textwrap
import warnings

from .. import __version__, startup
from .common import EnvironmentFailure, UsageError, one_line
from .table_command import table_commands

__all__ = ["main", "console_main", "parse", "build_parser", "command_modules", "COMMANDS",
           "DEFAULT_COMMAND", "raised_as_bad_input"]

# the sub-commands, in the order --help lists them: cmd_<name>.py modules and table commands
COMMANDS = (
    "edge", "strategy", "advantage", "hand", "dealer",
    "stand", "hit", "double", "split", "surrender", "optimal",
    "initial", "exceptions", "insurance",
    "eor", "counts", "indices", "tc_advantage",
    "risk", "game", "simulate", "sidebet", "serve",
)
DEFAULT_COMMAND = "edge"


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one ``UsageError`` line (exit 2), and
    keeps its flags in ``flags`` ({option string: action}, from what ``add_argument``
    returns, also in argument groups) for the hints of a mistake."""

    def __init__(self, *args, **kwargs) -> None:
        self.flags: dict = {}     # (before argparse's __init__, which adds -h)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        return _record(super().add_argument(*args, **kwargs), self.flags)

    def add_argument_group(self, *args, **kwargs):
        return _RecordingGroup(super().add_argument_group(*args, **kwargs), self.flags)

    def add_mutually_exclusive_group(self, **kwargs):
        return _RecordingGroup(super().add_mutually_exclusive_group(**kwargs), self.flags)

    def error(self, message):
        raise UsageError(message)


def _record(action, flags: dict):
    for option in action.option_strings:
        flags[option] = action
    return action


class _RecordingGroup:
    """An argument group of a ``Parser`` that records the flags added to it."""

    def __init__(self, group, flags: dict):
        self._group = group
        self._flags = flags

    def add_argument(self, *args, **kwargs):
        return _record(self._group.add_argument(*args, **kwargs), self._flags)

    def add_argument_group(self, *args, **kwargs):
        return _RecordingGroup(self._group.add_argument_group(*args, **kwargs), self._flags)

    def add_mutually_exclusive_group(self, **kwargs):
        return _RecordingGroup(self._group.add_mutually_exclusive_group(**kwargs), self._flags)

    def __getattr__(self, name):      # set_defaults, title, ...
        return getattr(self._group, name)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """A command's description is its module docstring: paragraphs are refilled to the
    terminal width; indented lines and a paragraph starting "Example" are kept as they
    are (command lines must not run into the text)."""

    def _fill_text(self, text, width, indent):
        out = []
        for block in text.split("\n\n"):
            lines = block.splitlines()
            if all(line.startswith("    ") for line in lines if line.strip()):
                out.append("\n".join(indent + line for line in lines))
            elif block.lstrip().startswith("Example"):
                out.append("\n".join(_example_lines(lines, width, indent)))
            else:
                out.append(textwrap.fill(" ".join(block.split()), width,
                                         initial_indent=indent, subsequent_indent=indent))
        return "\n\n".join(out)


def _example_lines(lines, width, indent) -> list:
    """'Example: bjsolve ...' and its continuation lines, each kept a line of its own
    (wrapped only where longer than the width, under the start of its command)."""
    out = []
    for line in lines:
        body = line.strip()
        lead = len(line) - len(line.lstrip())
        hang = len(body.split(":", 1)[0]) + 2 if body.startswith("Example") else lead
        out += textwrap.wrap(body, width, initial_indent=indent + " " * lead,
                             subsequent_indent=indent + " " * hang, break_long_words=False,
                             break_on_hyphens=False) or [""]
    return out


def command_modules():
    """{command name: module or table command}, in ``COMMANDS`` order."""
    tables = table_commands()
    modules = {}
    for name in COMMANDS:
        module = tables.get(name) or importlib.import_module(f".cmd_{name}", __name__)
        modules[module.NAME] = module
    return modules


def build_parser(only=None, flags: bool = True):
    """(top-level parser, {command name: sub-parser}, {command name: module}).  ``only``:
    the one command to build a sub-parser for (None: every command, as ``bjsolve --help``
    lists them all); ``flags=False`` leaves the commands' own flags out (the top-level
    help shows one line per command)."""
    modules = command_modules()
    top = Parser(prog="bjsolve",
                 description="Exact blackjack analysis: house edge, basic strategy, every "
                             "action's EV, dealer outcomes, card counting.",
                 epilog="Run 'bjsolve COMMAND --help' for a command's flags. With no command, "
                        f"'{DEFAULT_COMMAND}' runs. Values are fractions of the initial bet "
                        "unless a table says otherwise; text output shows percentages where "
                        "labelled.")
    top.add_argument("--version", action="version", version=f"bjsolve {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                             parser_class=Parser)
    parsers = {}
    for name, module in modules.items():
        if only is not None and name != only:
            continue
        p = sub.add_parser(name, help=module.HELP, description=_description(module),
                           formatter_class=HelpFormatter)
        if flags:
            module.add_arguments(p)
        parsers[name] = p
    return top, parsers, modules


def _description(module) -> str:
    doc = (module.__doc__ or "").strip()
    return doc or module.HELP


def _with_default_command(argv, names):
    """argv with the default command inserted when none is given (``bjsolve --decks 1``)."""
    if not argv:
        return [DEFAULT_COMMAND]
    first = argv[0]
    if first in ("-h", "--help", "--version") or first in names:
        return argv
    if first.startswith("-"):
        # flags before the command (``bjsolve --decks 1 dealer``): move the command first
        for i, word in enumerate(argv):
            if word in names:
                return [word] + argv[:i] + argv[i + 1:]
        return [DEFAULT_COMMAND] + argv
    return argv


def _unknown_command(word, names) -> str:
    close = difflib.get_close_matches(word, names, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown command '{word}'{hint} (commands: {', '.join(names)})"


def _unknown_flags(extras, command, parsers) -> str:
    """One line for unrecognised arguments, with the nearest flag or where a flag belongs."""
    own = [o for o in parsers[command].flags if o.startswith("--")]
    word = next((e for e in extras if e.startswith("-")), extras[0])
    flag = word.split("=", 1)[0]
    message = f"{command}: unrecognized argument '{word[:40]}'"
    if flag.startswith("-"):
        elsewhere = [n for n, p in parsers.items() if flag in p.flags
                     and p.flags[flag].help != argparse.SUPPRESS]
        close = difflib.get_close_matches(flag, own, n=1)
        if elsewhere:
            message += f" ({flag} goes with: {', '.join(elsewhere)})"
        elif close:
            message += f"; did you mean '{close[0]}'?"
    return message


def _where_it_goes(message, command, parsers) -> str:
    """Add which commands accept a value this command refuses (``--format index``)."""
    m = re.match(r"argument (--[\w-]+): invalid choice: '([^']*)'", message)
    if m:
        flag, value = m.groups()
        takers = [n for n, p in parsers.items() if n != command
                  and value in (getattr(p.flags.get(flag), "choices", None) or ())]
        if takers:
            message += f" ({flag} {value} goes with: {', '.join(takers)})"
    return message


def _attach_dash_values(argv, parser) -> list:
    """argv with a value that starts with a minus sign attached to its flag
    (``--ramp -1:1,2:4`` -> ``--ramp=-1:1,2:4``): argparse takes a plain negative number
    after a flag, but reads ``-1:1,2:4`` or ``-1,1,1,...`` as an unknown flag."""
    out = []
    words = iter(argv)
    for word in words:
        action = parser.flags.get(word)
        # a flag that takes one value (store, append: nargs None), not a switch (nargs 0)
        if action is not None and action.nargs is None:
            value = next(words, None)
            if value is not None and re.match(r"-[\d.]", value):
                out.append(f"{word}={value}")
                continue
            out.append(word)
            if value is not None:
                out.append(value)
            continue
        out.append(word)
    return out


def parse(argv):
    names = list(command_modules())
    argv = _with_default_command(list(argv), names)
    if argv and not argv[0].startswith("-") and argv[0] not in names:
        raise UsageError(_unknown_command(argv[0], names))
    # only the command given gets a parser (building all 20 is a good part of a quick
    # command's time); a mistake's hint looks at every command's flags
    top, own, modules = build_parser(only=argv[0] if argv and argv[0] in names else None,
                                     flags=not argv or argv[0] not in ("-h", "--help",
                                                                       "--version"))
    if argv and argv[0] in own:
        argv = _attach_dash_values(argv, own[argv[0]])
    try:
        args, extras = top.parse_known_args(argv)
    except UsageError as exc:
        raise UsageError(_where_it_goes(str(exc), argv[0], build_parser()[1])) from None
    if extras:
        raise UsageError(_unknown_flags(extras, args.command, build_parser()[1]))
    args.module = modules[args.command]
    args.flag_names = {a.dest: a.option_strings[-1] for a in own[args.command].flags.values()
                       if a.option_strings[-1].startswith("--")}
    return args


def _as_flags(message: str, flag_names: dict) -> str:
    """An API error in the words of the command line: a parameter the command has as a flag
    is named by its flag ('wong_out (+3) must not be above wong_in (+1)' -> '--wong-out
    (+3) must not be above --wong-in (+1)').  Names with an underscore are replaced
    wherever they stand; a one-word name only where it opens the message ('burn must be
    ...'), since 'burn' or 'rounds' in a sentence are plain words."""
    for dest, flag in flag_names.items():
        if "_" in dest:
            message = re.sub(rf"(?<![\w-]){dest}(?![\w-])", flag, message)
        elif re.match(rf"{dest}(?=[ :])", message):
            message = flag + message[len(dest):]
    return message


def main(argv=None, out=None) -> int:
    """Run the command line; returns the exit code.  ``out``: a text stream for the
    output instead of stdout (tests)."""
    argv = sys.argv[1:] if argv is None else argv
    with warnings.catch_warnings():
        # a shoe too small for a round is flagged in every table's notes instead
        warnings.simplefilter("ignore", RuntimeWarning)
        args = None
        try:
            args = parse(argv)
            startup.imports_done()     # Ctrl-C is a KeyboardInterrupt from here on
            args.out = out
            if out is None and sys.stdout is None:
                raise UsageError("standard output is closed; nothing to write to")
            return args.module.run(args) or 0
        except SystemExit as exc:           # --help and --version
            return exc.code if isinstance(exc.code, int) else 0
        except UsageError as exc:
            print(f"bjsolve: error: {one_line(exc)}", file=sys.stderr)
            return 2
        except NotImplementedError as exc:  # a rule stated but not computed yet
            print(f"bjsolve: error: {one_line(exc)}", file=sys.stderr)
            return 2
        except (ValueError, TypeError) as exc:
            if not raised_as_bad_input(exc):
                return _internal_error(exc)
            # the library refused an argument: name the flags as typed
            flags = getattr(args, "flag_names", {})
            print(f"bjsolve: error: {_as_flags(one_line(exc), flags)}", file=sys.stderr)
            return 2
        except BrokenPipeError:
            _silence_stdout()
            return 0
        except (EnvironmentFailure, OSError) as exc:   # not a bug: what failed, in one line
            print(f"bjsolve: error: {one_line(exc)}", file=sys.stderr)
            if getattr(exc, "on_stdout", False):
                _silence_stdout()    # the interpreter's last flush would fail again
            return 1
        except KeyboardInterrupt:
            print("bjsolve: interrupted", file=sys.stderr)
            return 130
        except Exception as exc:  # a bug, not a bad argument: still one line unless debugging
            return _internal_error(exc)


def _internal_error(exc: Exception) -> int:
    """A bug: one line that says so (exit 1), or the traceback when debugging."""
    if debugging():
        raise exc
    print(f"bjsolve: internal error: {type(exc).__name__}: {one_line(exc)} "
          "(a bug in bjsolve, not in what you typed; set BJSOLVE_DEBUG=1 for the traceback)",
          file=sys.stderr)
    return 1


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def raised_as_bad_input(exc: BaseException) -> bool:
    """Whether a ValueError or TypeError is the library refusing an argument: raised by a
    ``raise`` statement in bjsolve's own Python code (the library's way to report bad input:
    it names the field, the value and what is allowed).  Raised anywhere else (Python's
    builtins on a value the library computed, numpy, a kernel), it is a bug."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    filename = tb.tb_frame.f_code.co_filename
    if not os.path.abspath(filename).startswith(_PACKAGE_DIR + os.sep):
        return False
    return linecache.getline(filename, tb.tb_lineno).lstrip().startswith("raise ")


def debugging() -> bool:
    """BJSOLVE_DEBUG on: any value except empty, 0, false, no, off."""
    value = os.environ.get("BJSOLVE_DEBUG", "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def _silence_stdout():
    """After a closed pipe (``bjsolve | head``), point stdout at devnull so the
    interpreter's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def console_main() -> None:
    """Run the command line and exit with its code (``bjsolve.__main__.console_main``
    first guards the imports against an early Ctrl-C)."""
    code = main()
    # a Ctrl-C from here on (the interpreter's shutdown joins idle worker threads) would
    # show a traceback: the work is done, so it only ends the process at once
    startup.guard_imports()
    if code == 130:
        # interrupted: a compiled solve still running in a worker thread cannot be stopped
        # midway, and a normal exit would wait for it (seconds); leave without joining
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)
