package dev.gpurent.service;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/**
 * Passes an immutable value over the local event bus by reference. Refuses the wire: values sent
 * with it never leave this JVM.
 */
public final class LocalCodec<T> implements MessageCodec<T, T> {

  private final Class<T> type;

  public LocalCodec(Class<T> type) {
    this.type = type;
  }

  @Override
  public void encodeToWire(Buffer buffer, T t) {
    throw new UnsupportedOperationException(type.getSimpleName() + " is local only");
  }

  @Override
  public T decodeFromWire(int pos, Buffer buffer) {
    throw new UnsupportedOperationException(type.getSimpleName() + " is local only");
  }

  @Override
  public T transform(T t) {
    return t;
  }

  @Override
  public String name() {
    return "local-" + type.getName();
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
