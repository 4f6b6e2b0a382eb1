package dev.gpurent.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Random;

/** Ports for servers a test or benchmark tells which port to bind (Hazelcast members), chosen before they start. */
public final class FreePorts {

  private static final Random RANDOM = new Random();

  private FreePorts() {}

  /**
   * A free port below Linux's ephemeral range (32768-60999): one the kernel hands out could be
   * given to another socket bound to port 0 (a node's HTTP server) before the server told it binds it.
   */
  public static int belowEphemeral() throws IOException {
    for (int tries = 0; tries < 100; tries++) {
      int port = 20_000 + RANDOM.nextInt(12_000);
      try (ServerSocket s = new ServerSocket(port)) {
        return s.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException("no free port in 20000-31999");
  }
}
