package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.config.YamlFiles;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document's YAML says what it means, checked without npm (.ci/run also runs
 * {@code redocly lint} when npm is there). An unquoted description with a comma inside a flow mapping
 * ({@code {description: memory, bandwidth}}) silently becomes a description cut at the comma and a
 * junk key {@code bandwidth} with no value: every key of the document must be an OpenAPI field or
 * a name in a place that holds names (paths, properties, status codes, media types, components),
 * and every {@code nullable} has the {@code type} it qualifies.
 */
class OpenApiDocumentTest {

  /** The fixed field names of OpenAPI 3.0.3's objects (Info, Operation, Parameter, Schema, ...). */
  private static final Set<String> FIELDS = Set.of("openapi", "info", "servers", "paths", "components", "security", "tags",
      "externalDocs", "title", "description", "termsOfService", "contact", "license", "version", "name", "url", "email",
      "variables", "enum", "default", "summary", "get", "put", "post", "delete", "options", "head", "patch", "trace",
      "parameters", "operationId", "requestBody", "responses", "callbacks", "deprecated", "in", "required", "allowEmptyValue",
      "style", "explode", "allowReserved", "schema", "example", "examples", "content", "headers", "links", "encoding",
      "contentType", "schemas", "securitySchemes", "requestBodies", "$ref", "type", "format", "nullable", "readOnly",
      "writeOnly", "discriminator", "xml", "items", "properties", "additionalProperties", "allOf", "oneOf", "anyOf", "not",
      "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
      "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "scheme", "bearerFormat", "flows",
      "openIdConnectUrl", "value", "externalValue", "operationRef", "server", "propertyName", "mapping");
  /** Fields whose value is the API's own data (any shape), not OpenAPI. */
  private static final Set<String> DATA = Set.of("example", "default", "enum");
  private static final Set<String> TEXTS = Set.of("description", "summary", "title");

  /** How the keys of a map are read: OpenAPI fields, or names of one kind (each its pattern). */
  private enum Keys {
    FIELDS(null),
    PATHS(Pattern.compile("/[A-Za-z0-9/{}._-]*")),
    PROPERTIES(Pattern.compile("[A-Za-z_][A-Za-z0-9_]*")),
    STATUSES(Pattern.compile("[1-5](\\d\\d|XX)|default")),
    MEDIA_TYPES(Pattern.compile("[a-z]+/[a-z0-9.+*-]+")),
    NAMES(Pattern.compile("[A-Za-z0-9._-]+"));

    final Pattern pattern;

    Keys(Pattern pattern) {
      this.pattern = pattern;
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> document() {
    return (Map<String, Object>) YamlFiles.load(Path.of("src/main/resources/openapi.yaml"));
  }

  @Test
  void every_key_is_an_openapi_field_or_a_name_and_every_value_is_there() {
    assertEquals(List.of(), faults(document()));
  }

  @Test
  void finds_the_junk_key_an_unquoted_comma_makes() {
    // The /api/gpus answer as it was written before: the description stops at the first comma.
    Object broken = YamlFiles.parse(new StringReader("""
        openapi: 3.0.3
        paths:
          /api/gpus:
            get:
              responses:
                "200": {description: Every card with memory, bandwidth, TFLOPS}
        """), "test");
    assertEquals(List.of("paths./api/gpus.get.responses.200: bandwidth is not an OpenAPI field",
        "paths./api/gpus.get.responses.200.bandwidth: no value",
        "paths./api/gpus.get.responses.200: TFLOPS is not an OpenAPI field",
        "paths./api/gpus.get.responses.200.TFLOPS: no value"), faults(broken));
  }

  @Test
  @SuppressWarnings("unchecked")
  void the_admin_routes_and_only_they_ask_for_the_declared_bearer_scheme() {
    Map<String, Object> doc = document();
    Map<String, Object> schemes = (Map<String, Object>) ((Map<String, Object>) doc.get("components")).get("securitySchemes");
    Map<String, Object> bearer = (Map<String, Object>) schemes.get("bearer");
    assertEquals("http", bearer.get("type"));
    assertEquals("bearer", bearer.get("scheme"));
    assertEquals(List.of(), doc.get("security"));  // the rest are open: declared so, as redocly's security-defined asks
    Map<String, Object> asking = new TreeMap<>();
    ((Map<String, Map<String, Map<String, Object>>>) doc.get("paths")).forEach((path, methods) -> methods.forEach((method, op) -> {
      if (op.containsKey("security")) asking.put(method.toUpperCase() + " " + path, op.get("security"));
    }));
    List<Map<String, List<Object>>> bearerOnly = List.of(Map.of("bearer", List.of()));
    assertEquals(Map.of("POST /api/admin/snapshot", bearerOnly, "POST /api/admin/refresh", bearerOnly,
        "POST /api/admin/reload", bearerOnly, "POST /api/admin/quote-sheets", bearerOnly), asking);
  }

  /** Every fault of the document's shape, each as "where: what". */
  static List<String> faults(Object doc) {
    List<String> faults = new ArrayList<>();
    walk(doc, Keys.FIELDS, "", "", faults);
    return faults;
  }

  @SuppressWarnings("unchecked")
  private static void walk(Object node, Keys keys, String parentKey, String at, List<String> faults) {
    if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) walk(list.get(i), Keys.FIELDS, parentKey, at + "[" + i + "]", faults);
      return;
    }
    if (!(node instanceof Map<?, ?> map)) return;
    if (keys == Keys.FIELDS && map.containsKey("nullable") && !map.containsKey("type")) {
      faults.add(at + ": nullable without a type");  // OpenAPI 3.0 ignores such a nullable
    }
    ((Map<String, Object>) map).forEach((key, value) -> {
      String here = at.isEmpty() ? key : at + "." + key;
      if (keys == Keys.FIELDS && !FIELDS.contains(key) && !key.startsWith("x-")) {
        faults.add(at + ": " + key + " is not an OpenAPI field");
      } else if (keys != Keys.FIELDS && !keys.pattern.matcher(key).matches()) {
        faults.add(at + ": " + key + " is not a name a " + keys.name().toLowerCase() + " map holds");
      }
      if (value == null) {
        faults.add(here + ": no value");
      } else if (keys == Keys.FIELDS && TEXTS.contains(key) && !(value instanceof String)) {
        faults.add(here + ": not text");
      } else if (keys != Keys.FIELDS) {
        walk(value, Keys.FIELDS, key, here, faults);
      } else if (!DATA.contains(key) && !"security".equals(key)) {
        walk(value, valueKeys(key, parentKey), key, here, faults);
      }
    });
  }

  /** How the keys of a field's value are read, by the field and the field holding it. */
  private static Keys valueKeys(String key, String parentKey) {
    if ("components".equals(parentKey)) return Keys.NAMES;
    return switch (key) {
      case "paths" -> Keys.PATHS;
      case "properties" -> Keys.PROPERTIES;
      case "responses" -> Keys.STATUSES;
      case "content" -> Keys.MEDIA_TYPES;
      case "headers", "examples", "encoding", "variables", "links", "callbacks", "mapping" -> Keys.NAMES;
      default -> Keys.FIELDS;
    };
  }
}
