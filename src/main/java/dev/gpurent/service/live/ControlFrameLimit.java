package dev.gpurent.service.live;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.function.LongSupplier;

/**
 * Sits in a dashboard's channel just before Vert.x's handler and bounds what a client's control
 * frames can make the server hold. Vert.x answers every ping with a pong written at once, past
 * the write queue's limit, so a client that pings and never reads grew the server's heap without
 * bound. Here a ping is passed on (and answered) only while the channel is writable: one that
 * comes while the dashboard has not read what it was sent is dropped, which RFC 6455 allows (a
 * pong is owed only to the latest ping). And a client that sends more than {@code perSecond}
 * control frames (pings and pongs) in one second is sent a close frame (1008) and cut off.
 * It also notes when the client last sent a frame of any kind, for the dashboards' idle check.
 * Runs on the channel's event loop, the one its {@link Totals} are read on.
 */
final class ControlFrameLimit extends ChannelInboundHandlerAdapter {

  static final String NAME = "gpurent-control-frames";
  private static final long SECOND = 1_000_000_000L;

  /** What every dashboard's limit did, together. */
  static final class Totals {
    long answered;
    long dropped;

    /** Pings passed on to be answered. */
    long answered() {
      return answered;
    }

    /** Pings dropped, unanswered, because their client had not read what it was sent. */
    long dropped() {
      return dropped;
    }
  }

  private final int perSecond;
  private final LongSupplier nanoTime;
  private final Totals totals;
  private final Runnable exceeded;
  private long windowStart;
  private int inWindow;
  private long heardAt;
  private boolean closing;

  /**
   * @param perSecond control frames one client may send in a second
   * @param nanoTime  the clock (System::nanoTime, or a test's)
   * @param totals    counts shared by the dashboards of one event loop
   * @param exceeded  called once, when the client goes past the rate and is cut off
   */
  ControlFrameLimit(int perSecond, LongSupplier nanoTime, Totals totals, Runnable exceeded) {
    this.perSecond = perSecond;
    this.nanoTime = nanoTime;
    this.totals = totals;
    this.exceeded = exceeded;
    this.windowStart = nanoTime.getAsLong();
    this.heardAt = windowStart;
  }

  /** When the client last sent a frame (any kind), on the clock given; its creation if never. */
  long heardAt() {
    return heardAt;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    heardAt = nanoTime.getAsLong();
    boolean ping = msg instanceof PingWebSocketFrame;
    if (!ping && !(msg instanceof PongWebSocketFrame)) {
      ctx.fireChannelRead(msg);
      return;
    }
    if (closing || overRate()) {
      ReferenceCountUtil.release(msg);
      cutOff(ctx);
      return;
    }
    if (ping && !ctx.channel().isWritable()) {
      totals.dropped++;
      ReferenceCountUtil.release(msg);
      return;
    }
    if (ping) totals.answered++;
    ctx.fireChannelRead(msg);
  }

  private boolean overRate() {
    if (heardAt - windowStart >= SECOND) {
      windowStart = heardAt;
      inWindow = 0;
    }
    return ++inWindow > perSecond;
  }

  /** A close frame saying why (if the peer reads at all), then the connection closed without waiting for its answer. */
  private void cutOff(ChannelHandlerContext ctx) {
    if (closing) return;
    closing = true;
    exceeded.run();
    ctx.writeAndFlush(new CloseWebSocketFrame(1008, "too many control frames"));
    ctx.close();
  }
}
