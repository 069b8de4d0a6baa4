#!/usr/bin/env python3
"""A HotStrings protocol client in Python, standard library only.

Talks to `hotstrings serve` over its Unix socket: one JSON object per line in each
direction (docs/PROTOCOL.md). Use it as a command-line tool or import `Client`:

    with Client.connect() as client:
        print(client.request("get", key="greeting", language="de")["value"])
        client.request("subscribe", snapshot=False)
        for event in client.events():
            print(event["event"], event["seq"])
"""

import argparse
import json
import os
import re
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hotstrings_plurals  # noqa: E402

PROTOCOL_VERSION = 1
MAXIMUM_LINE = 64 * 1024 * 1024  # events (snapshots) can be large; requests are capped at 64 KiB by the daemon

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CANNOT_CONNECT = 2
EXIT_USAGE = 64


def resolve_socket_path(option=None, environ=None, uid=None):
    """The socket path, resolved like the daemon does.

    --socket, else $HOTSTRINGS_SOCKET, else $XDG_RUNTIME_DIR/hotstrings.sock (only when
    it is an absolute path), else /tmp/hotstrings-<uid>.sock. Empty values count as unset.
    """
    environ = os.environ if environ is None else environ
    if option:
        return option
    if environ.get("HOTSTRINGS_SOCKET"):
        return environ["HOTSTRINGS_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return runtime.rstrip("/") + "/hotstrings.sock"
    return "/tmp/hotstrings-%d.sock" % (os.getuid() if uid is None else uid)


class ProtocolError(Exception):
    """An error response: `code` is one of bad_request, unknown_op, not_found,
    unsupported_language, too_large, internal."""

    def __init__(self, error):
        self.code = error.get("code", "internal")
        self.message = error.get("message", "")
        self.available = error.get("available")
        super().__init__("%s: %s" % (self.code, self.message))


class UntrustedServer(OSError):
    """The server at the socket runs as a user that is neither ours nor root nor trusted
    (docs/PROTOCOL.md, "Which servers a client trusts")."""

    def __init__(self, path, uid):
        self.uid = uid
        super().__init__("refusing the server at %s: it runs as uid %d, not as this user (uid %d) or root; "
                         "if you trust it, pass --trust-uid %d" % (path, uid, os.getuid(), uid))


class Client:
    """One connection to the daemon. Not thread-safe: use it from one thread."""

    def __init__(self, sock):
        self._socket = sock
        self._reader = sock.makefile("rb")
        self._next_id = 1
        self._events = []  # events that arrived while waiting for a response
        self.position = None  # (epoch, seq) of the last event or subscribe response
        self._subscription = None  # the filters of the last subscribe, for resubscribing after a gap

    @classmethod
    def connect(cls, path=None, trusted_uids=()):
        """Connects to the daemon at `path` (default: resolve_socket_path()) and checks with
        SO_PEERCRED that its server runs as our user, root, or one of `trusted_uids`; raises
        UntrustedServer otherwise, before a byte is sent."""
        path = path or resolve_socket_path()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            _, uid, _ = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
            if uid not in (0, os.getuid()) and uid not in trusted_uids:
                raise UntrustedServer(path, uid)
        except OSError:
            sock.close()
            raise
        return cls(sock)

    def close(self):
        self._reader.close()
        self._socket.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, message):
        """Sends one request object as a line."""
        self._socket.sendall(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")

    def read_message(self):
        """The next line from the daemon as an object, or None when it closed the connection."""
        line = self._reader.readline(MAXIMUM_LINE + 1)
        if not line:
            return None
        if not line.endswith(b"\n"):
            raise ValueError("line longer than %d bytes or cut off" % MAXIMUM_LINE)
        return json.loads(line)

    def request(self, op, **fields):
        """Sends a request and returns the response's fields; raises ProtocolError for an error.

        Events that arrive before the response are kept for events()."""
        request_id = self._next_id
        self._next_id += 1
        self.send(dict(id=request_id, op=op, **fields))
        while True:
            message = self.read_message()
            if message is None:
                raise ConnectionError("the daemon closed the connection")
            if "event" in message:
                self._events.append(message)
                continue
            if message.get("id") not in (request_id, None):
                continue  # an answer to an earlier request someone else sent on this connection
            if not message.get("ok"):
                raise ProtocolError(message.get("error") or {})
            if op == "subscribe":
                self.position = (message["epoch"], message["seq"])
                self._subscription = {name: value for name, value in fields.items() if name != "since"}
            return message

    def format(self, key, *arguments, table="Localizable", language=None, languages=None, width=None,
               device="other", plural_rules=None):
        """The value of KEY formatted with ARGUMENTS, as String.localizedStringWithFormat formats it.

        A value with a format rule (a .stringsdict entry: the answer's `rule`) picks each plural
        variable's text with the plural rules of the language the daemon found it in (`language` of
        the answer: a `de` lookup that falls back to `en` uses English rules); a plain value is
        formatted like String(format:). Numbers select plural forms; a string is read as a decimal
        number as written ("1.0" is `other` in English)."""
        fields = {"key": key, "table": table}
        if language:
            fields["language"] = language
        elif languages:
            fields["languages"] = list(languages)
        answer = self.request("get", **fields)
        if "rule" not in answer:
            return hotstrings_plurals.format_string(answer["value"], arguments)
        if plural_rules is None:
            plural_rules = self._plural_rules = getattr(self, "_plural_rules", None) or \
                hotstrings_plurals.PluralRules.load()
        return hotstrings_plurals.format_rule(answer["rule"], answer["language"], arguments, plural_rules,
                                              width=width, device=device)

    def events(self):
        """Yields events as they arrive, until the daemon closes the connection.

        Keeps the stream consistent the way docs/PROTOCOL.md asks: after a `resync`,
        events are skipped until the `snapshot` that follows; events already covered by
        the last snapshot are skipped; on a gap in `seq` (or another epoch) it resubscribes
        with `since`, and the daemon answers with a fresh snapshot."""
        waiting_for_snapshot = False
        while True:
            if self._events:
                event = self._events.pop(0)
            else:
                event = self.read_message()
                if event is None:
                    return
                if "event" not in event:
                    continue  # a response nobody waits for
            name, position = event["event"], (event["epoch"], event["seq"])
            if name == "snapshot":
                self.position = position
                waiting_for_snapshot = False
            elif name == "resync":
                waiting_for_snapshot = True
            elif waiting_for_snapshot:
                continue
            elif self.position is not None and position[0] == self.position[0] and position[1] <= self.position[1]:
                continue
            elif self.position is not None and position != (self.position[0], self.position[1] + 1):
                self._resubscribe()
                waiting_for_snapshot = True
                continue
            else:
                self.position = position
            yield event

    def _resubscribe(self):
        fields = dict(self._subscription or {})
        fields["since"] = {"epoch": self.position[0], "seq": self.position[1]}
        fields["snapshot"] = True
        response = self.request("subscribe", **fields)
        # Events queued before the answer are in the snapshot that follows it.
        self._events = [event for event in self._events
                        if event["epoch"] == response["epoch"] and event["seq"] > response["seq"]]


def _print_json(value, stream=sys.stdout):
    stream.write(json.dumps(value, ensure_ascii=False) + "\n")
    stream.flush()


def _split(value):
    return [item for item in value.split(",") if item] if value else None


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: error: %s\n" % (self.prog, message))
        sys.exit(EXIT_USAGE)


def _parser():
    parser = _Parser(
        prog="hotstrings_client.py",
        description="Talk to `hotstrings serve` over its Unix socket (HotStrings protocol version 1).",
        epilog="The socket: --socket, else $HOTSTRINGS_SOCKET, else $XDG_RUNTIME_DIR/hotstrings.sock, "
        "else /tmp/hotstrings-<uid>.sock. Exit status: 0 success, 1 error response or key not found, "
        "2 cannot connect, 64 usage error.",
    )
    parser.add_argument("--socket", metavar="PATH", help="the daemon's socket")
    parser.add_argument("--trust-uid", metavar="UID", type=int, action="append", default=[],
                        help="also believe a daemon running as this user (repeatable); by default only "
                        "our own user's or root's")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    commands.add_parser("hello", help="server name, protocol version, epoch and seq")
    get = commands.add_parser("get", help="print the value of KEY (exit 1 when not found anywhere), formatted "
                              "with ARGs when given (numbers select plural forms)")
    get.add_argument("key")
    get.add_argument("args", nargs="*", metavar="ARG", help="arguments: integers, decimal numbers as written, "
                     "or strings")
    get.add_argument("--width", type=int, help="the width variable-width rules pick for (default: the widest)")
    get.add_argument("--device", default="other", help="the device device-specific rules pick for")
    get.add_argument("--table", default="Localizable")
    group = get.add_mutually_exclusive_group()
    group.add_argument("--language")
    group.add_argument("--languages", metavar="LIST", help="a comma-separated preference list")
    table = commands.add_parser("table", help="print one table as JSON")
    table.add_argument("language")
    table.add_argument("--table", default="Localizable")
    commands.add_parser("languages", help="languages, their tables and key counts, the selected language")
    commands.add_parser("status", help="the daemon's status")
    select = commands.add_parser("select-language", help="select the app language ('none' clears it)")
    select.add_argument("language")
    subscribe = commands.add_parser("subscribe", help="print the subscribe response, then events as JSON lines")
    subscribe.add_argument("--languages", metavar="LIST", help="comma-separated languages (default all)")
    subscribe.add_argument("--tables", metavar="LIST", help="comma-separated tables (default all)")
    subscribe.add_argument("--no-snapshot", action="store_true", help="skip the initial snapshot")
    subscribe.add_argument("--since", metavar="EPOCH:SEQ", help="resume; no snapshot if still current")
    subscribe.add_argument("--count", type=int, metavar="N", help="exit after N events")
    request = commands.add_parser("request", help="send one raw JSON request and print the response")
    request.add_argument("json")
    commands.add_parser("socket-path", help="print the socket path this client would use")
    plural = commands.add_parser("plural", help="print the CLDR plural category of each NUMBER (no daemon)")
    plural.add_argument("language")
    plural.add_argument("numbers", nargs="+", metavar="NUMBER")
    plural.add_argument("--ordinal", action="store_true", help="the ordinal rules (1st, 2nd)")
    return parser


def _subscribe(client, arguments):
    fields = {"snapshot": not arguments.no_snapshot}
    if arguments.languages:
        fields["languages"] = _split(arguments.languages)
    if arguments.tables:
        fields["tables"] = _split(arguments.tables)
    if arguments.since:
        try:
            epoch, seq = (int(part) for part in arguments.since.split(":"))
        except ValueError:
            sys.stderr.write("hotstrings_client.py: error: --since takes EPOCH:SEQ\n")
            return EXIT_USAGE
        fields["since"] = {"epoch": epoch, "seq": seq}
    _print_json(client.request("subscribe", **fields))
    seen = 0
    for event in client.events():
        _print_json(event)
        seen += 1
        if arguments.count is not None and seen >= arguments.count:
            break
    return EXIT_OK


def _run(client, arguments):
    command = arguments.command
    if command == "get":
        fields = {"key": arguments.key, "table": arguments.table}
        if arguments.language:
            fields["language"] = arguments.language
        elif arguments.languages:
            fields["languages"] = _split(arguments.languages)
        if arguments.args:
            values = [int(arg) if re.match(r"^[+-]?\d+$", arg) else arg for arg in arguments.args]
            try:
                text = client.format(arguments.key, *values, table=arguments.table, width=arguments.width,
                                     device=arguments.device, **{k: v for k, v in fields.items() if "lang" in k})
            except hotstrings_plurals.FormatError as error:
                sys.stderr.write("hotstrings_client.py: error: cannot format %r: %s\n" % (arguments.key, error))
                return EXIT_FAILURE
            sys.stdout.write(text + "\n")
            return EXIT_OK
        response = client.request("get", **fields)
        sys.stdout.write(response["value"] + "\n")
        return EXIT_OK if response["found"] else EXIT_FAILURE
    if command == "table":
        _print_json(client.request("table", language=arguments.language, table=arguments.table))
        return EXIT_OK
    if command == "select-language":
        language = None if arguments.language == "none" else arguments.language
        _print_json(client.request("select-language", language=language))
        return EXIT_OK
    if command == "subscribe":
        return _subscribe(client, arguments)
    if command == "request":
        client.send(json.loads(arguments.json))
        response = client.read_message()
        while response is not None and "event" in response:
            response = client.read_message()
        if response is None:
            raise ConnectionError("the daemon closed the connection")
        _print_json(response)
        return EXIT_OK if response.get("ok") else EXIT_FAILURE
    _print_json(client.request(command))
    return EXIT_OK


def main(argv=None):
    arguments = _parser().parse_args(argv)
    path = resolve_socket_path(arguments.socket)
    if arguments.command == "socket-path":
        sys.stdout.write(path + "\n")
        return EXIT_OK
    if arguments.command == "plural":
        rules = hotstrings_plurals.PluralRules.load()
        try:
            for number in arguments.numbers:
                category = rules.category(number, arguments.language, ordinal=arguments.ordinal)
                sys.stdout.write("%s %s\n" % (number, category))
        except hotstrings_plurals.FormatError as error:
            sys.stderr.write("hotstrings_client.py: error: %s\n" % error)
            return EXIT_USAGE
        return EXIT_OK
    if arguments.command == "request":
        try:
            json.loads(arguments.json)
        except ValueError as error:
            sys.stderr.write("hotstrings_client.py: error: the request is not JSON: %s\n" % error)
            return EXIT_USAGE
    try:
        client = Client.connect(path, trusted_uids=arguments.trust_uid)
    except UntrustedServer as error:
        sys.stderr.write("hotstrings_client.py: error: %s\n" % error)
        return EXIT_CANNOT_CONNECT
    except OSError as error:
        sys.stderr.write(
            "hotstrings_client.py: error: cannot connect to %s: %s\n"
            "hint: start the daemon with `hotstrings serve BUNDLE`\n" % (path, error.strerror or error)
        )
        return EXIT_CANNOT_CONNECT
    try:
        with client:
            return _run(client, arguments)
    except ProtocolError as error:
        sys.stderr.write("hotstrings_client.py: error: %s\n" % error)
        if error.available:
            sys.stderr.write("available: %s\n" % ", ".join(error.available))
        return EXIT_FAILURE
    except (ConnectionError, BrokenPipeError) as error:
        sys.stderr.write("hotstrings_client.py: error: %s\n" % error)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
