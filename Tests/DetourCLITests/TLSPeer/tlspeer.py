"""An HTTPS upstream on 127.0.0.1 whose TLS records go bad after the handshake, for the log
reproductions of TLS failing below the handshake's verdict, which no well-behaved server does.

  tlspeer.py PORT CERT KEY head   reads the request, then sends a record whose integrity
                                  check fails instead of the answer (a middlebox or an offload
                                  that corrupts what it forwards)
  tlspeer.py PORT CERT KEY body   answers 200 with the first kilobyte of a longer body, then
                                  sends the bad record
  tlspeer.py PORT CERT KEY reset  resets the connection once the request's first bytes are in
                                  (an application that refuses an upload and hangs up)
"""
import socket
import ssl
import struct
import sys
import time

# An application-data record (type 23, TLS 1.2's version on the wire) of 32 zero bytes: no key
# encrypted it, so its authentication tag fails.
BAD_RECORD = b"\x17\x03\x03\x00\x20" + b"\x00" * 32


def serve(port, certificate, key, stage):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    listener = socket.create_server(("127.0.0.1", port))
    while True:
        connection, _ = listener.accept()
        try:
            secure = context.wrap_socket(connection, server_side=True)
            secure.recv(65536)
            if stage == "reset":
                # Closed with nothing left to linger: a reset, not a goodbye.
                plain = socket.socket(fileno=secure.detach())
                plain.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                plain.close()
                continue
            if stage == "body":
                secure.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b"x" * 1000)
                time.sleep(0.1)
            # Below TLS from here on: the record goes out as it is.
            plain = socket.socket(fileno=secure.detach())
            plain.sendall(BAD_RECORD)
            time.sleep(0.2)
            plain.close()
        except (OSError, ssl.SSLError):
            connection.close()


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4])
