package dev.gpurent.adapter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON value from a Jackson streaming parser into maps, lists, strings, booleans and
 * null, with every number as the {@link BigDecimal} of its text (prices never pass through a
 * double). For payloads of a few MB at most: large payloads are streamed and only their small
 * parts read with this.
 */
final class JsonValues {

  private JsonValues() {}

  private static final JsonFactory JSON = new JsonFactory();

  /** A whole payload, which must be one JSON value; {@code what} names it in the errors. */
  static Object document(Payload payload, String what) {
    try (InputStream in = payload.open(); JsonParser p = JSON.createParser(in)) {
      if (p.nextToken() == null) throw new IllegalArgumentException("empty " + what + " payload");
      Object v = read(p);
      if (p.nextToken() != null) throw new IllegalArgumentException(what + " payload: trailing data after the JSON value");
      return v;
    } catch (IOException e) {
      throw new IllegalArgumentException(what + " payload is not JSON: " + e.getMessage(), e);
    }
  }

  /** The value at the parser's current token; leaves the parser on that value's last token. */
  static Object read(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) throw new IOException("no JSON value");
    switch (t) {
      case START_OBJECT: {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          m.put(name, read(p));
        }
        return m;
      }
      case START_ARRAY: {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) l.add(read(p));
        return l;
      }
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return new BigDecimal(p.getText());
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      case VALUE_STRING:
        return p.getText();
      default:
        throw new IOException("unexpected JSON token " + t);
    }
  }
}
