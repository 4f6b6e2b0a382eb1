package dev.gpurent.service.live;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.internal.http.WebSocketInternal;

/**
 * The one place gpurent reaches past Vert.x's public API: a dashboard's Netty channel, reached
 * through Vert.x's internal WebSocket interface (HttpVerticle upgrades /ws itself, since the
 * router's wrapper would hide it). Vert.x 5 does not offer what the dashboards' limits need:
 * <ul>
 *   <li>a reset: Vert.x offers only graceful closes ({@code close()}, a close frame), and both wait
 *       behind everything the peer has not read, holding its queued frames and the kernel's unsent
 *       bytes until it reads again, which a stalled dashboard never does. A reset does not wait:
 *       SO_LINGER 0, and the close sent from the pipeline's first handler so that it reaches the
 *       socket without passing Vert.x's handlers;</li>
 *   <li>the end of the TCP connection, however it ends: an upgraded connection is no longer the
 *       HttpConnection the connection limits counted, whose close handler never runs again;</li>
 *   <li>the bytes queued for the peer and not yet written;</li>
 *   <li>a handler that sees control frames before Vert.x answers them ({@link ControlFrameLimit}).</li>
 * </ul>
 */
public final class DashboardChannel {

  /** Vert.x's WebSocket handler in the pipeline. */
  private final ChannelHandlerContext vertx;
  private final Channel channel;
  private final Future<Void> closed;

  private DashboardChannel(ChannelHandlerContext vertx, Future<Void> closed) {
    this.vertx = vertx;
    this.channel = vertx.channel();
    this.closed = closed;
  }

  /** The channel of {@code ws}, a Vert.x server WebSocket; {@code context} is where {@link #closed()} completes. */
  public static DashboardChannel of(ServerWebSocket ws, Context context) {
    ChannelHandlerContext vertx = ((WebSocketInternal) ws).channelHandlerContext();
    Promise<Void> closed = Promise.promise();
    vertx.channel().closeFuture().addListener(f -> context.runOnContext(v -> closed.complete()));
    return new DashboardChannel(vertx, closed.future());
  }

  /** Completes (on the context given) when the TCP connection is gone: closed by either side, reset, timed out or failed. */
  public Future<Void> closed() {
    return closed;
  }

  /** Bytes queued for the peer and not yet handed to the kernel (0 once closed). */
  long held() {
    ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
    return out == null ? 0 : out.totalPendingWriteBytes();
  }

  /** Puts {@code limit} in the pipeline, just before Vert.x's WebSocket handler. */
  void limitControlFrames(ControlFrameLimit limit) {
    channel.pipeline().addBefore(vertx.name(), ControlFrameLimit.NAME, limit);
  }

  /** Cuts the connection off at once: a reset, not a close that would wait behind what the peer never reads. */
  void reset() {
    channel.config().setOption(ChannelOption.SO_LINGER, 0);
    channel.pipeline().firstContext().close();
  }
}
