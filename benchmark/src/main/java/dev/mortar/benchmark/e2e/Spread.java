package dev.mortar.benchmark.e2e;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Minimum, median and maximum of a figure over repeats. */
public record Spread(double min, double median, double max, int count) {

  /** The spread of {@code values}; {@code null} when there are none. */
  static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    double median =
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Spread(sorted.get(0), median, sorted.get(n - 1), n);
  }

  /** {@code median [min–max]} with the given number format, or the median alone for one value. */
  String format(String numberFormat) {
    String med = String.format(Locale.ROOT, numberFormat, median);
    if (count == 1) {
      return med;
    }
    return med
        + " ["
        + String.format(Locale.ROOT, numberFormat, min)
        + "–"
        + String.format(Locale.ROOT, numberFormat, max)
        + "]";
  }
}
