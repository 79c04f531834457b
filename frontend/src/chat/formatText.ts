/**
 * Split an assistant reply into paragraphs and lists, so "4. buy milk" lines read as a list.
 * A reply's numbered lines are task numbers ("4. buy milk"), shown as labels so that 1, 4, 5
 * does not read as a list with items missing; only "1. finish report (ID: 2)", the list of
 * tasks a question offers, numbers positions. Plain data in, plain data out: the rendering
 * lives in MessageText.
 */

export interface ListItem {
  marker: string;
  text: string;
  done: boolean;
}

export type Block =
  | { kind: "paragraph"; lines: string[] }
  | { kind: "tasks"; items: ListItem[] }
  | { kind: "ordered"; items: ListItem[] }
  | { kind: "bullets"; items: ListItem[] };

const NUMBERED = /^\s*(\d{1,10})[.)]\s+(.*)$/;
const OFFERED = /\(ID: \d+\)$/;
const BULLET = /^\s*[-*•]\s+(.*)$/;
const DONE_MARK = /^(?:✓|✔|✅|☑)\s*/u;

function item(marker: string, text: string): ListItem {
  const done = DONE_MARK.test(text);
  return { marker, text: done ? text.replace(DONE_MARK, "") : text, done };
}

export function toBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const last = blocks[blocks.length - 1];
    const numbered = NUMBERED.exec(line);
    const bullet = numbered ? null : BULLET.exec(line);
    if (numbered) {
      const text = numbered[2] ?? "";
      const kind = OFFERED.test(text) ? "ordered" : "tasks";
      const entry = item(kind === "tasks" ? `#${numbered[1]}` : `${numbered[1]}.`, text);
      if (last?.kind === kind) last.items.push(entry);
      else blocks.push({ kind, items: [entry] });
    } else if (bullet) {
      const entry = item("•", bullet[1] ?? "");
      if (last?.kind === "bullets") last.items.push(entry);
      else blocks.push({ kind: "bullets", items: [entry] });
    } else if (line.trim() === "") {
      // A blank line ends a paragraph; the next text starts a new one.
      if (last?.kind === "paragraph" && last.lines.length > 0) blocks.push({ kind: "paragraph", lines: [] });
    } else if (last?.kind === "paragraph") {
      last.lines.push(line);
    } else {
      blocks.push({ kind: "paragraph", lines: [line] });
    }
  }
  return blocks.filter((block) => block.kind !== "paragraph" || block.lines.length > 0);
}
