package dev.gpurent.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON values as the pure readers take them: nested JsonObject and JsonArray become plain maps and lists. */
public final class PlainValues {

  private PlainValues() {}

  public static Object of(Object o) {
    if (o instanceof JsonObject j) return of(j.getMap());
    if (o instanceof JsonArray a) return of(a.getList());
    if (o instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), of(v)));
      return out;
    }
    if (o instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(v -> out.add(of(v)));
      return out;
    }
    return o;
  }

  /**
   * A JSON text as plain values: objects as maps, arrays as lists, decoded so at once rather than
   * into JsonObjects copied by {@link #of} (live messages decode each piece they render).
   */
  public static Object parse(String json) {
    int i = 0;
    while (i < json.length() && Character.isWhitespace(json.charAt(i))) i++;
    char first = i < json.length() ? json.charAt(i) : ' ';
    // decoded as Map or List, Vert.x's codec gives plain maps and lists all the way down; as Object, JsonObject and JsonArray
    Class<?> as = first == '{' ? Map.class : first == '[' ? List.class : Object.class;
    return io.vertx.core.json.Json.decodeValue(json, as);
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(JsonObject o) {
    return (Map<String, Object>) of(o);
  }
}
