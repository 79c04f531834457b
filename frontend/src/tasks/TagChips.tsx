/** A task's tags; each one filters the panel by it (pressed while that filter is on). */
import { SpokenAs } from "../ui/SpokenAs";

interface Props {
  tags: readonly string[];
  activeTag: string | null;
  onPick: (tag: string | null) => void;
}

export function TagChips({ tags, activeTag, onPick }: Props) {
  if (tags.length === 0) return null;
  return (
    <>
      {tags.map((tag) => (
        <button
          key={tag}
          type="button"
          className="chip tag-chip"
          aria-pressed={tag === activeTag}
          onClick={() => onPick(tag === activeTag ? null : tag)}
        >
          <SpokenAs spoken={`Filter by tag #${tag}`}>#{tag}</SpokenAs>
        </button>
      ))}
    </>
  );
}
