package dev.gpurent.adapter;

import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One vendor payload as a {@link PayloadFormat} reads it: its bytes, in a file (streamed, for
 * payloads of hundreds of MB) or in memory, and where they came from, which its quotes cite after
 * the kind ({@code aws-price-list:<origin>}). A download's origin is its source's URL, not the
 * temporary file it was saved to. One of {@code file} and {@code bytes} is null: use the factories.
 */
public record Payload(Path file, Buffer bytes, String origin) {

  /** A file, cited by its path. */
  public static Payload of(Path file) {
    return of(file, file.toString());
  }

  /** A file holding what came from {@code origin}. */
  public static Payload of(Path file, String origin) {
    return new Payload(file, null, origin);
  }

  /** Bytes held in memory, cited as {@code origin}. */
  public static Payload of(Buffer bytes, String origin) {
    return new Payload(null, bytes, origin);
  }

  /** The bytes from the start; the caller closes the stream. */
  public InputStream open() throws IOException {
    return file != null ? Files.newInputStream(file) : new ByteArrayInputStream(bytes.getBytes());
  }

  /** The bytes as UTF-8 text from the start; the caller closes the reader. */
  public Reader reader() throws IOException {
    return file != null ? Files.newBufferedReader(file, StandardCharsets.UTF_8) : new StringReader(text());
  }

  /** The whole payload as UTF-8 text: for payloads of a few MB at most. */
  public String text() throws IOException {
    return file != null ? Files.readString(file, StandardCharsets.UTF_8) : bytes.toString(StandardCharsets.UTF_8);
  }
}
