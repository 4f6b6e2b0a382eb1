package dev.gpurent.service.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A dashboard's control frames on a channel of their own (Netty's EmbeddedChannel, no socket):
 * what is passed on to Vert.x (which answers a ping with a pong) is what reaches the channel's
 * end; the clock is the test's.
 */
class ControlFrameLimitTest {

  final long[] now = {1_000_000_000L};
  final AtomicInteger exceeded = new AtomicInteger();
  final ControlFrameLimit.Totals totals = new ControlFrameLimit.Totals();

  EmbeddedChannel channel(int perSecond) {
    EmbeddedChannel ch = new EmbeddedChannel(new ControlFrameLimit(perSecond, () -> now[0], totals, exceeded::incrementAndGet));
    ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(64, 128));
    return ch;
  }

  static PingWebSocketFrame ping() {
    return new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
  }

  @Test
  void a_ping_is_answered_only_while_the_peer_reads_what_it_was_sent() {
    EmbeddedChannel ch = channel(100);
    ch.writeInbound(ping());
    assertInstanceOf(PingWebSocketFrame.class, ch.readInbound(), "passed on while writable");
    // 200 bytes queued and not flushed: over the high water mark, as for a peer that stopped reading
    ch.write(Unpooled.wrappedBuffer(new byte[200]));
    assertFalse(ch.isWritable());
    for (int i = 0; i < 10; i++) ch.writeInbound(ping());
    assertNull(ch.readInbound(), "no pong is queued behind what the peer has not read");
    assertEquals(1, totals.answered());
    assertEquals(10, totals.dropped());
    ch.flush();
    assertTrue(ch.isWritable());
    ch.writeInbound(ping());
    assertInstanceOf(PingWebSocketFrame.class, ch.readInbound(), "answered again once it read");
    assertEquals(2, totals.answered());
    assertTrue(ch.isOpen());
    assertEquals(0, exceeded.get());
  }

  @Test
  void a_client_past_the_rate_is_sent_1008_and_cut_off() {
    EmbeddedChannel ch = channel(3);
    ch.writeInbound(ping());
    ch.writeInbound(new PongWebSocketFrame());
    ch.writeInbound(ping());
    assertTrue(ch.isOpen(), "3 control frames in a second are allowed");
    ch.writeInbound(new TextWebSocketFrame("{}"));
    assertTrue(ch.isOpen(), "data frames do not count");
    ch.writeInbound(ping());
    assertFalse(ch.isOpen(), "the 4th in a second closes it");
    CloseWebSocketFrame close = assertInstanceOf(CloseWebSocketFrame.class, ch.readOutbound());
    assertEquals(1008, close.statusCode());
    assertEquals("too many control frames", close.reasonText());
    close.release();
    assertEquals(1, exceeded.get());
    assertEquals(2, totals.answered(), "the one over the rate is not answered");
  }

  @Test
  void the_rate_is_counted_per_second() {
    EmbeddedChannel ch = channel(3);
    for (int second = 0; second < 5; second++) {
      for (int i = 0; i < 3; i++) ch.writeInbound(ping());
      now[0] += 1_000_000_000L;
    }
    assertTrue(ch.isOpen());
    assertEquals(15, totals.answered());
    assertEquals(0, exceeded.get());
  }

  @Test
  void notes_when_the_client_was_last_heard_from() {
    ControlFrameLimit limit = new ControlFrameLimit(3, () -> now[0], totals, () -> {});
    EmbeddedChannel ch = new EmbeddedChannel(limit);
    assertEquals(1_000_000_000L, limit.heardAt(), "its creation, before any frame");
    now[0] = 5_000_000_000L;
    ch.writeInbound(new TextWebSocketFrame("{}"));
    assertEquals(5_000_000_000L, limit.heardAt());
    now[0] = 7_000_000_000L;
    ch.writeInbound(new PongWebSocketFrame());
    assertEquals(7_000_000_000L, limit.heardAt());
  }
}
