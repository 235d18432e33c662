package dev.mortar.logformat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Log file names (shared/spec/hudi-format.md §5): {@code
 * .<fileId>_<instant>.log.<version>_<writeToken>}, versions from 1 (Hudi's {@code
 * LOGFILE_BASE_VERSION}). The fileId must not contain {@code .} or {@code _}; the write token is
 * {@code <taskPartition>-<stage>-<attempt>}, or Hudi's parser does not recognise the file.
 */
public final class LogFileName {
  /** Hudi's {@code FSUtils.LOG_FILE_PATTERN}. */
  public static final Pattern PATTERN =
      Pattern.compile(
          "^\\.([^._]+)_([^.]*)\\.(log|archive)\\.(\\d+)(_((\\d+)-(\\d+)-(\\d+))(\\.cdc)?)?$");

  private static final Pattern WRITE_TOKEN = Pattern.compile("\\d+-\\d+-\\d+");

  private LogFileName() {}

  public static String of(String fileId, String instantTime, int version, String writeToken) {
    return "." + fileId + "_" + instantTime + ".log." + version + "_" + writeToken;
  }

  /** Fails with the offending value unless Hudi's parser would accept the resulting names. */
  static void validate(String fileId, String instantTime, String writeToken) {
    if (fileId.isEmpty() || fileId.indexOf('.') >= 0 || fileId.indexOf('_') >= 0) {
      throw new IllegalArgumentException(
          "fileId '" + fileId + "' must be non-empty and contain neither '.' nor '_'");
    }
    if (instantTime.isEmpty() || instantTime.indexOf('.') >= 0) {
      throw new IllegalArgumentException("instantTime '" + instantTime + "' must not contain '.'");
    }
    if (!WRITE_TOKEN.matcher(writeToken).matches()) {
      throw new IllegalArgumentException(
          "writeToken '" + writeToken + "' must be <taskPartition>-<stage>-<attempt>, e.g. 0-1-0");
    }
  }

  /** The version of a log file name, or -1 when the name is not a log file. */
  public static int versionOf(String name) {
    Matcher matcher = PATTERN.matcher(name);
    return matcher.matches() ? Integer.parseInt(matcher.group(4)) : -1;
  }
}
