/**
 * Split an assistant reply into paragraphs and lists, so "1. Buy milk" lines read as a list.
 * Plain data in, plain data out: the rendering lives in MessageText.
 */

export interface ListItem {
  marker: string;
  text: string;
  done: boolean;
}

export type Block =
  | { kind: "paragraph"; lines: string[] }
  | { kind: "ordered"; items: ListItem[] }
  | { kind: "bullets"; items: ListItem[] };

const NUMBERED = /^\s*(\d{1,6})[.)]\s+(.*)$/;
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
      const entry = item(`${numbered[1]}.`, numbered[2] ?? "");
      if (last?.kind === "ordered") last.items.push(entry);
      else blocks.push({ kind: "ordered", items: [entry] });
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
