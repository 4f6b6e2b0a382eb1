package dev.gpurent.service;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.internal.http.WebSocketInternal;

/**
 * The one place gpurent reaches past Vert.x's public API: resetting a stalled dashboard's TCP
 * connection. Vert.x 5 offers only graceful closes ({@code close()}, a close frame), and both wait
 * behind everything the peer has not read, holding its queued frames and the kernel's unsent bytes
 * until it reads again, which a stalled dashboard never does. A reset does not wait: SO_LINGER 0,
 * and the close sent from the pipeline's first handler so that it reaches the socket without
 * passing Vert.x's handlers. The channel is reached through Vert.x's internal WebSocket interface
 * (HttpVerticle upgrades /ws itself, since the router's wrapper would hide it); on a socket that
 * is not Vert.x's own, a policy-violation close is the best there is.
 */
final class SocketReset {

  private SocketReset() {}

  static void reset(ServerWebSocket ws) {
    if (ws instanceof WebSocketInternal internal) {
      Channel channel = internal.channelHandlerContext().channel();
      channel.config().setOption(ChannelOption.SO_LINGER, 0);
      channel.pipeline().firstContext().close();
    } else {
      ws.close((short) 1008, "too slow: stopped reading");
    }
  }
}
