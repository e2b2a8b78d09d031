/**
 * What can follow each position: `""` (the root) lists resources and top-level commands, `"datasets"`
 * lists that resource's commands, `"datasets update-row"` lists that command's flags. Every shell's
 * script is this table plus a few lines of lookup.
 */
export interface CompletionTable {
  words: Record<string, { word: string; description: string }[]>;
  /** Flags that take a value, so that the value is not taken for a command name. */
  valueFlags: string[];
  /**
   * Values offered after a flag, by position (a key of `words`) and then flag: two commands may give
   * one flag different values (`--sort-by` of `datasets list` and of `traces list`). The root's lists
   * stand for any position that has none of its own.
   */
  values: Record<string, Record<string, string[]>>;
}
