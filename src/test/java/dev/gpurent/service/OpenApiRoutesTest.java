package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document is the API's contract: every route the service mounts under /api (and /ws,
 * /health, /metrics) is in it with its method, and nothing is documented that is not mounted.
 */
class OpenApiRoutesTest {

  private static final Pattern ROUTE = Pattern.compile("router\\.(get|post|put|delete|patch)\\(\"(/[^\"]*)\"");
  /** Routes that are not API: the Swagger UI, the dashboard's files, the body handler for every POST. */
  private static final Set<String> NOT_API = Set.of("GET /*", "GET /api/docs", "GET /api/docs/*", "GET /api/docs/swagger-initializer.js",
      "GET /api/openapi.yaml", "GET /webjars/uplot/*", "POST /api/*");

  @Test
  void documents_every_mounted_route_and_only_those() throws IOException {
    Set<String> mounted = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/gpurent/service"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = ROUTE.matcher(Files.readString(f));
        while (m.find()) {
          String route = m.group(1).toUpperCase() + " " + m.group(2).replaceAll(":(\\w+)", "{$1}");
          if (!NOT_API.contains(route)) mounted.add(route);
        }
      }
    }
    mounted.add("GET /ws");  // upgraded by HttpVerticle itself, before the router
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) ((Map<String, Object>) YamlFiles.load(
        Path.of("src/main/resources/openapi.yaml"))).get("paths");
    Set<String> documented = new TreeSet<>();
    paths.forEach((path, methods) -> methods.keySet().forEach(m -> documented.add(m.toUpperCase() + " " + path)));
    assertTrue(mounted.size() > 20, mounted.toString());
    assertEquals(mounted, documented);
  }
}
