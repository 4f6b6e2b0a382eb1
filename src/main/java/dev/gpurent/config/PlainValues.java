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

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(JsonObject o) {
    return (Map<String, Object>) of(o);
  }
}
