package dev.mortar.benchmark.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Command-line flags of the benchmark programs: {@code --name value} or {@code --name=value}, every
 * name declared with a default so that {@code --help} can list them and typos fail.
 */
public final class Flags {
  private final String program;
  private final Map<String, String> defaults = new LinkedHashMap<>();
  private final Map<String, String> help = new LinkedHashMap<>();
  private final Map<String, String> values = new LinkedHashMap<>();

  public Flags(String program) {
    this.program = program;
  }

  /** Declares a flag with its default value and a one-line description. */
  public Flags declare(String name, String defaultValue, String description) {
    defaults.put(name, defaultValue);
    help.put(name, description);
    return this;
  }

  /**
   * Parses {@code args}; returns false (after printing the usage) when {@code --help} was given.
   *
   * @throws IllegalArgumentException naming an unknown flag or a flag without a value
   */
  public boolean parse(String[] args) {
    List<String> rest = new ArrayList<>(Arrays.asList(args));
    while (!rest.isEmpty()) {
      String arg = rest.remove(0);
      if (arg.equals("--help") || arg.equals("-h")) {
        System.out.println(usage());
        return false;
      }
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException(program + ": expected --flag, found '" + arg + "'");
      }
      String name = arg.substring(2);
      String value;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      } else if (!rest.isEmpty()) {
        value = rest.remove(0);
      } else {
        throw new IllegalArgumentException(program + ": flag --" + name + " needs a value");
      }
      if (!defaults.containsKey(name)) {
        Set<String> known = new TreeSet<>(defaults.keySet());
        throw new IllegalArgumentException(
            program + ": unknown flag --" + name + "; known flags: " + known);
      }
      values.put(name, value);
    }
    return true;
  }

  /** The flag's value, or its default. */
  public String get(String name) {
    if (!defaults.containsKey(name)) {
      throw new IllegalStateException("flag --" + name + " was never declared");
    }
    return values.getOrDefault(name, defaults.get(name));
  }

  public long getLong(String name) {
    return parseNumber(name, get(name));
  }

  public int getInt(String name) {
    return Math.toIntExact(getLong(name));
  }

  public boolean getBoolean(String name) {
    return Boolean.parseBoolean(get(name));
  }

  /** A comma-separated flag as its trimmed, non-empty items. */
  public List<String> getList(String name) {
    List<String> items = new ArrayList<>();
    for (String item : get(name).split(",")) {
      if (!item.isBlank()) {
        items.add(item.trim());
      }
    }
    return items;
  }

  /** The flags given explicitly, as {@code --name value} arguments. */
  public List<String> explicitArgs() {
    List<String> args = new ArrayList<>();
    values.forEach(
        (name, value) -> {
          args.add("--" + name);
          args.add(value);
        });
    return args;
  }

  /** The usage text: every flag with its default. */
  public String usage() {
    StringBuilder text = new StringBuilder("usage: " + program + " [flags]\n");
    defaults.forEach(
        (name, value) ->
            text.append(
                String.format("  --%-22s %s (default: %s)%n", name, help.get(name), value)));
    return text.toString();
  }

  /** Parses {@code 2000000}, {@code 2_000_000}, {@code 2M}, {@code 500k}. */
  static long parseNumber(String name, String text) {
    String digits = text.trim().replace("_", "").toLowerCase();
    long scale = 1;
    if (digits.endsWith("k")) {
      scale = 1_000;
    } else if (digits.endsWith("m")) {
      scale = 1_000_000;
    } else if (digits.endsWith("g")) {
      scale = 1_000_000_000;
    }
    if (scale != 1) {
      digits = digits.substring(0, digits.length() - 1);
    }
    try {
      return Math.multiplyExact(Long.parseLong(digits), scale);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "flag --" + name + ": expected a number like 2000000, 2M or 500k, found '" + text + "'");
    }
  }
}
