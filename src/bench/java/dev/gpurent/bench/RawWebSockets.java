package dev.gpurent.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * WebSocket clients on plain NIO sockets, read by one thread, for the clients that will stop
 * reading: a stopped one is simply no longer read, so that what it does not read stays in the
 * kernel's socket buffers (as with a real client that stopped reading) rather than in a client
 * library's queues on this JVM's heap, which the benchmark measures for the server. Frames from the
 * server are unmasked; the one frame sent (subscribe) is masked, as RFC 6455 requires.
 */
final class RawWebSockets implements AutoCloseable {

  private static final byte[] RANKING = "{\"type\":\"ranking\"".getBytes(StandardCharsets.US_ASCII);

  /** Called on the reader thread for every text frame starting a ranking message. */
  interface Listener {
    void ranking(Conn c, long nanos);
  }

  /** One connection and what was read from it. */
  static final class Conn {
    final int index;
    final SocketChannel ch;
    final ByteBuffer in = ByteBuffer.allocate(256 * 1024);
    volatile boolean reading = true;
    volatile int closeStatus = -1;
    volatile boolean eof;
    volatile long eofAt;
    volatile long bytes;
    SelectionKey key;

    Conn(int index, SocketChannel ch) {
      this.index = index;
      this.ch = ch;
    }
  }

  private final Selector selector;
  private final Listener listener;
  private final List<Conn> conns = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  RawWebSockets(Listener listener) throws IOException {
    this.selector = Selector.open();
    this.listener = listener;
    this.thread = new Thread(this::loop, "raw-websockets");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Connects, upgrades and subscribes; blocking, on the caller's thread. */
  Conn connect(int index, int port, String path, String subscribe, int receiveBuffer) throws IOException {
    SocketChannel ch = SocketChannel.open();
    if (receiveBuffer > 0) ch.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
    ch.connect(new InetSocketAddress("127.0.0.1", port));
    byte[] nonce = new byte[16];
    ThreadLocalRandom.current().nextBytes(nonce);
    String req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
    write(ch, ByteBuffer.wrap(req.getBytes(StandardCharsets.US_ASCII)));
    Conn c = new Conn(index, ch);
    // the 101 answer; nothing else can follow it before we subscribe
    StringBuilder head = new StringBuilder();
    ByteBuffer one = ByteBuffer.allocate(1);
    long until = System.nanoTime() + 10_000_000_000L;
    while (!head.toString().endsWith("\r\n\r\n")) {
      one.clear();
      if (ch.read(one) < 0 || System.nanoTime() > until) throw new IOException("handshake: connection closed after " + head);
      head.append((char) one.get(0));
    }
    if (!head.toString().startsWith("HTTP/1.1 101")) throw new IOException("handshake refused: " + head);
    write(ch, maskedText(subscribe));
    ch.configureBlocking(false);
    synchronized (conns) {
      conns.add(c);
    }
    selector.wakeup();
    return c;
  }

  private static void write(SocketChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) ch.write(b);
  }

  private static ByteBuffer maskedText(String text) {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    if (payload.length > 65535) throw new IllegalArgumentException("subscribe message too long");
    ByteBuffer b = ByteBuffer.allocate(payload.length + 8);
    b.put((byte) 0x81);
    if (payload.length < 126) {
      b.put((byte) (0x80 | payload.length));
    } else {
      b.put((byte) (0x80 | 126)).putShort((short) payload.length);
    }
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    b.put(mask);
    for (int i = 0; i < payload.length; i++) b.put((byte) (payload[i] ^ mask[i & 3]));
    return b.flip();
  }

  /** Stops reading {@code c}: what the server sends stays in the kernel. */
  void pause(Conn c) {
    c.reading = false;
    selector.wakeup();
  }

  void resume(Conn c) {
    c.reading = true;
    selector.wakeup();
  }

  private void loop() {
    try {
      while (running) {
        selector.select(50);
        synchronized (conns) {
          for (Conn c : conns) {
            if (c.key == null && c.ch.isOpen() && !c.eof) c.key = c.ch.register(selector, SelectionKey.OP_READ, c);
            if (c.key != null && c.key.isValid()) c.key.interestOps(c.reading && !c.eof ? SelectionKey.OP_READ : 0);
          }
        }
        for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
          SelectionKey k = it.next();
          it.remove();
          Conn c = (Conn) k.attachment();
          if (!k.isValid() || !c.reading) continue;
          read(c);
        }
      }
    } catch (IOException | RuntimeException e) {
      if (running) e.printStackTrace();
    }
  }

  private void read(Conn c) {
    try {
      int n;
      while (c.reading && (n = c.ch.read(c.in)) > 0) {
        c.bytes += n;
        parse(c, System.nanoTime());
      }
      if (c.reading && c.ch.read(c.in) < 0) {
        c.eof = true;
        c.eofAt = System.nanoTime();
        c.key.cancel();
      }
    } catch (IOException e) {
      c.eof = true;
      c.eofAt = System.nanoTime();
      if (c.key != null) c.key.cancel();
    }
  }

  /** Consumes every whole frame in the buffer. */
  private void parse(Conn c, long now) {
    ByteBuffer b = c.in;
    b.flip();
    while (b.remaining() >= 2) {
      int start = b.position();
      int b0 = b.get(start) & 0xff;
      int b1 = b.get(start + 1) & 0xff;
      int header = 2;
      long len = b1 & 0x7f;
      if (len == 126) {
        if (b.remaining() < 4) break;
        len = b.getShort(start + 2) & 0xffff;
        header = 4;
      } else if (len == 127) {
        if (b.remaining() < 10) break;
        len = b.getLong(start + 2);
        header = 10;
      }
      if (header + len > b.capacity()) throw new IllegalStateException("frame of " + len + " bytes: larger than the buffer");
      if (b.remaining() < header + len) break;
      int opcode = b0 & 0x0f;
      int payload = start + header;
      if (opcode == 1 && startsWith(b, payload, (int) len, RANKING)) listener.ranking(c, now);
      if (opcode == 8) c.closeStatus = len >= 2 ? b.getShort(payload) & 0xffff : 0;
      b.position((int) (payload + len));
    }
    b.compact();
  }

  private static boolean startsWith(ByteBuffer b, int at, int len, byte[] prefix) {
    if (len < prefix.length) return false;
    for (int i = 0; i < prefix.length; i++) if (b.get(at + i) != prefix[i]) return false;
    return true;
  }

  @Override
  public void close() throws IOException {
    running = false;
    selector.wakeup();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (conns) {
      for (Conn c : conns) c.ch.close();
    }
    selector.close();
  }
}
