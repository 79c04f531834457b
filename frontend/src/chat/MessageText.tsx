/** A message's text: line breaks kept, task lines, numbered and bulleted lines shown as lists. */
import { Fragment } from "react";

import { toBlocks, type Block, type ListItem } from "./formatText";

function Items({ items, labelled = false }: { items: ListItem[]; labelled?: boolean }) {
  return items.map((entry, index) => (
    <Fragment key={index}>
      {index > 0 && "\n"}
      <li className={entry.done ? "msg-item is-done" : "msg-item"}>
        <span className={labelled ? "msg-marker msg-task-number" : "msg-marker"}>{entry.marker}</span>{" "}
        {entry.done && (
          <>
            <span className="msg-check">✓</span>{" "}
          </>
        )}
        <span>{entry.text}</span>
      </li>
    </Fragment>
  ));
}

function BlockView({ block }: { block: Block }) {
  switch (block.kind) {
    case "tasks":
      // Task numbers are labels, not the list's counter (a list of 1, 4, 5 has no gaps).
      return (
        <ul className="msg-list msg-tasks">
          <Items items={block.items} labelled />
        </ul>
      );
    case "ordered":
      return (
        <ol className="msg-list">
          <Items items={block.items} />
        </ol>
      );
    case "bullets":
      return (
        <ul className="msg-list">
          <Items items={block.items} />
        </ul>
      );
    case "paragraph":
      return <p className="msg-paragraph">{block.lines.join("\n")}</p>;
  }
}

export function MessageText({ text }: { text: string }) {
  return (
    <div className="msg-text">
      {toBlocks(text).map((block, index) => (
        <Fragment key={index}>
          {index > 0 && "\n"}
          <BlockView block={block} />
        </Fragment>
      ))}
    </div>
  );
}
