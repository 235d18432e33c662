package dev.mortar.benchmark.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The one Jackson mapper of the harness (figures are records). */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  static final ObjectMapper LINE = new ObjectMapper();

  private Json() {}
}
