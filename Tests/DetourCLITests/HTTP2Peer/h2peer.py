"""HTTP/2 without TLS (h2c) on 127.0.0.1, for the log reproductions that need a peer to reset
a stream, which curl does not do on purpose.

  h2peer.py client PORT [stall]    POST / with a body it never ends, reads the answer for a
                                   second, then resets the stream (CANCEL), as a gRPC client
                                   that gives up does; with `stall`, it never grants the
                                   server more room (HTTP/2 flow control) than the first
                                   64 KiB, so the server is writing when the reset comes.
  h2peer.py upstream PORT [reset]  answers every request 200 and streams its body in small
                                   frames until the stream ends; with `reset`, resets the
                                   stream (INTERNAL_ERROR) after the first frame, as a crashing
                                   gRPC server does.
"""
import socket
import sys
import threading
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions


def client(port, stall):
    sock = socket.create_connection(("127.0.0.1", port))
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    headers = [(":method", "POST"), (":path", "/"), (":scheme", "http"), (":authority", "127.0.0.1:%d" % port), ("content-type", "application/grpc")]
    conn.send_headers(1, headers)
    conn.send_data(1, b"request")
    sock.sendall(conn.data_to_send())
    sock.settimeout(0.1)
    status = 0
    end = time.time() + 1
    while time.time() < end:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status = int(dict(event.headers)[b":status"])
            elif isinstance(event, h2.events.DataReceived) and not stall:
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        sock.sendall(conn.data_to_send())
    conn.reset_stream(1, h2.errors.ErrorCodes.CANCEL)
    sock.sendall(conn.data_to_send())
    time.sleep(0.3)
    sock.close()
    print(status)


def serve(sock, reset):
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    sock.settimeout(0.05)
    streams = set()
    try:
        while True:
            try:
                data = sock.recv(65536)
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        conn.send_headers(event.stream_id, [(":status", "200"), ("content-type", "application/grpc")])
                        streams.add(event.stream_id)
                    elif isinstance(event, h2.events.StreamReset):
                        streams.discard(event.stream_id)
                    elif isinstance(event, h2.events.DataReceived):
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            except socket.timeout:
                pass
            for stream in list(streams):
                conn.send_data(stream, b"x" * 100)
                if reset:
                    conn.reset_stream(stream, h2.errors.ErrorCodes.INTERNAL_ERROR)
                    streams.discard(stream)
            sock.sendall(conn.data_to_send())
    except (OSError, h2.exceptions.ProtocolError):
        return


def upstream(port, reset):
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(8)
    while True:
        accepted, _ = listener.accept()
        threading.Thread(target=serve, args=(accepted, reset), daemon=True).start()


if __name__ == "__main__":
    if sys.argv[1] == "client":
        client(int(sys.argv[2]), sys.argv[3:] == ["stall"])
    else:
        upstream(int(sys.argv[2]), sys.argv[3:] == ["reset"])
