package dev.gpurent.service.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code /api/openapi.yaml}, the Swagger UI at {@code /api/docs} and the chart library the
 * dashboard loads. Webjar versions come from {@code webjars.properties}, which Maven fills from
 * the pom: a version bump there cannot leave a route pointing at a folder that is gone.
 */
final class DocsRoutes {

  static final Properties WEBJARS = webjars();

  private DocsRoutes() {}

  static void mount(Router router) {
    router.get("/api/openapi.yaml").handler(rc -> rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/yaml")
        .sendFile("openapi.yaml"));
    router.get("/api/docs").handler(rc -> rc.redirect("/api/docs/index.html"));
    router.get("/api/docs/swagger-initializer.js").handler(rc -> rc.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/javascript")
        .end("window.onload = () => { window.ui = SwaggerUIBundle({url: '/api/openapi.yaml', dom_id: '#swagger-ui'}); };"));
    router.get("/api/docs/*").handler(StaticHandler.create("META-INF/resources/webjars/swagger-ui/" + version("swagger-ui")));
  }

  /** The dashboard's chart library: after the API routes, before the dashboard's own files. */
  static void mountWebjars(Router router) {
    router.get("/webjars/uplot/*").handler(StaticHandler.create("META-INF/resources/webjars/uplot/" + version("uplot")));
  }

  static String version(String webjar) {
    String v = WEBJARS.getProperty(webjar);
    if (v == null || v.startsWith("${")) throw new IllegalStateException("webjars.properties has no version for " + webjar);
    return v;
  }

  private static Properties webjars() {
    Properties p = new Properties();
    try (InputStream in = DocsRoutes.class.getResourceAsStream("webjars.properties")) {
      if (in == null) throw new IllegalStateException("webjars.properties is missing from the class path");
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }
}
