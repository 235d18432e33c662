package dev.mortar.buffer;

/** A single record is larger than the whole page budget of the write task could ever hold. */
public final class RecordTooLargeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  RecordTooLargeException(
      String ownerName, long entryBytes, int pageSize, long budgetBytes, int pagesBesideEntries) {
    super(
        "record of "
            + entryBytes
            + " bytes (key + row + "
            + RecordEntryLayout.KEY_OFFSET
            + " bytes header, padded to 8) for buffer "
            + ownerName
            + " cannot fit even into an empty page pool: page size "
            + pageSize
            + " bytes, budget "
            + budgetBytes
            + " bytes = "
            + budgetBytes / pageSize
            + " pages"
            + switch (pagesBesideEntries) {
              case 0 -> "";
              case 1 -> ", one of them taken by the de-dup index";
              default -> ", two of them taken by the de-dup index and its entry log";
            }
            + ". Raise '"
            + BufferOptions.MEMORY.key()
            + "' to at least "
            + ((entryBytes + pageSize - 1) / pageSize + pagesBesideEntries) * pageSize
            + " bytes.");
  }
}
