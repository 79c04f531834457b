/** The due and priority filters, the order, and the tag filter a tag chip turned on. */
import { useId } from "react";

import type { DueFilter, Priority, TaskSort } from "../api/types";
import { CloseIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";
import { DUE_FILTERS, hasFilters, PRIORITIES, PRIORITY_LABELS, SORTS, type TaskView } from "./taskView";

interface Props {
  view: TaskView;
  onChange: (changes: Partial<TaskView>) => void;
}

export function TaskFilters({ view, onChange }: Props) {
  const id = useId();
  return (
    <div className="task-filters">
      <div className="filter-fields">
        <div className="task-field">
          <label htmlFor={`${id}-due`}>Due</label>
          <select
            id={`${id}-due`}
            className="task-input"
            value={view.due ?? ""}
            onChange={(event) => onChange({ due: (event.target.value || null) as DueFilter | null })}
          >
            <option value="">Any</option>
            {DUE_FILTERS.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="task-field">
          <label htmlFor={`${id}-priority`}>Priority</label>
          <select
            id={`${id}-priority`}
            className="task-input"
            value={view.priority ?? ""}
            onChange={(event) => onChange({ priority: (event.target.value || null) as Priority | null })}
          >
            <option value="">Any</option>
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {PRIORITY_LABELS[priority]}
              </option>
            ))}
          </select>
        </div>
        <div className="task-field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select
            id={`${id}-sort`}
            className="task-input"
            value={view.sort}
            onChange={(event) => onChange({ sort: event.target.value as TaskSort })}
          >
            {SORTS.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {hasFilters(view) && (
        <div className="active-filters">
          {view.tag !== null && (
            <button
              type="button"
              className="chip tag-chip is-removable"
              onClick={() => onChange({ tag: null })}
            >
              <SpokenAs spoken={`Stop filtering by tag #${view.tag}`}>#{view.tag}</SpokenAs>
              <CloseIcon width={12} height={12} />
            </button>
          )}
          <button
            type="button"
            className="link-button small"
            onClick={() => onChange({ tag: null, priority: null, due: null })}
          >
            Clear filters
          </button>
        </div>
      )}
    </div>
  );
}
