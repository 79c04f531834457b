/**
 * The task list beside the chat: a list switcher, filters and sort, then pending and
 * completed tasks, each editable in place, a page at a time (the next loads as the end of
 * the list scrolls near, or from "Load more").
 */
import { useEffect, useRef, useState, type ReactNode } from "react";

import { describeError } from "../api/errors";
import type { Task } from "../api/types";
import { useListAccess } from "../sharing/listAccess";
import { ListSharingBar } from "../sharing/ListSharingBar";
import { useWhenNear } from "../ui/useWhenNear";
import { AddTaskForm } from "./AddTaskForm";
import { ListSwitcher } from "./ListSwitcher";
import { TaskFilters } from "./TaskFilters";
import { TaskItem } from "./TaskItem";
import { describeView, EVERY_TASK, hasFilters, type TaskView } from "./taskView";
import { useTasks } from "./useTasks";
import "./tasks.css";

interface GroupProps {
  title: string;
  tasks: Task[];
  empty: ReactNode;
  view: TaskView;
  onTagPicked: (tag: string | null) => void;
  onDeleted: (id: number) => void;
  onMoved: (id: number) => void;
}

function TaskGroup({ title, tasks, empty, view, onTagPicked, onDeleted, onMoved }: GroupProps) {
  return (
    <div className="task-group">
      <div className="task-group-header">
        <h3>{title}</h3>
        <span className="count-badge" aria-hidden="true">
          {tasks.length}
        </span>
      </div>
      {tasks.length > 0 ? (
        <ul className="task-list">
          {tasks.map((task) => (
            <TaskItem
              key={task.id}
              task={task}
              showList={view.list === null}
              activeTag={view.tag}
              onTagPicked={onTagPicked}
              onDeleted={onDeleted}
              onMoved={onMoved}
            />
          ))}
        </ul>
      ) : (
        <div className="task-empty">{empty}</div>
      )}
    </div>
  );
}

/** What an empty Pending section says: a first-run hint, or why this view has nothing. */
function NothingPending({
  view,
  anyTasks,
  onClear,
  readOnly,
}: {
  view: TaskView;
  anyTasks: boolean;
  onClear: () => void;
  readOnly: boolean;
}) {
  if (anyTasks) return <p>Nothing pending. Nice work!</p>;
  if (hasFilters(view)) {
    return (
      <>
        <p>No tasks match these filters.</p>
        <button type="button" className="link-button small" onClick={onClear}>
          Clear filters
        </button>
      </>
    );
  }
  if (view.list !== null && readOnly) return <p>Nothing in {view.list} yet.</p>;
  if (view.list !== null) return <p>Nothing in {view.list} yet. Type a task above to add it here.</p>;
  return (
    <>
      <p className="task-empty-title">No tasks yet</p>
      <p>Ask the assistant to add one, or type it above.</p>
    </>
  );
}

interface MoreProps {
  loaded: number;
  total: number;
  loading: boolean;
  failed: boolean;
  /** False while a page is on its way or has just failed: a retry is the button's to ask. */
  automatic: boolean;
  onLoadMore: () => void;
}

/** The end of a list with more to come: a sentinel that loads the next page as it nears, and a button that does. */
function MoreTasks({ loaded, total, loading, failed, automatic, onLoadMore }: MoreProps) {
  const sentinel = useWhenNear<HTMLDivElement>(onLoadMore, automatic);
  return (
    <div className="task-more">
      <div ref={sentinel} className="task-more-sentinel" aria-hidden="true" />
      <p className="muted small">
        Showing {loaded} of {total} tasks
      </p>
      {failed && <p role="alert">Couldn't load more tasks.</p>}
      <button type="button" className="button button-small" onClick={onLoadMore} disabled={loading}>
        {loading ? "Loading…" : "Load more"}
      </button>
    </div>
  );
}

export function TaskPanel() {
  const [view, setView] = useState<TaskView>(EVERY_TASK);
  const tasks = useTasks(view);
  // A list the person may only view: no way to add to it (its tasks lock themselves).
  const { editable } = useListAccess(view.list);
  const section = useRef<HTMLElement>(null);
  // In the server's order: by number unless the view sorts otherwise.
  const all = tasks.tasks;
  const pending = all.filter((task) => !task.completed);
  const completed = all.filter((task) => task.completed);
  const moved = useRef<number | null>(null);
  const settled = tasks.data !== undefined && !tasks.isPlaceholderData;
  const partial = tasks.hasNextPage;
  const counted = partial
    ? `${tasks.total} tasks, ${all.length} shown`
    : `${pending.length} pending, ${completed.length} done`;

  const changeView = (changes: Partial<TaskView>) => setView((current) => ({ ...current, ...changes }));
  const clearFilters = () => changeView({ tag: null, priority: null, due: null });

  // A toggled task changes section (and element): keep keyboard focus on its checkbox.
  useEffect(() => {
    if (moved.current === null) return;
    const checkbox = section.current?.querySelector<HTMLElement>(`[data-task="${moved.current}"]`);
    if (checkbox && checkbox !== document.activeElement) {
      checkbox.focus();
      moved.current = null;
    }
  }, [tasks.data]);

  /** Focus the next task (or the add box) so keyboard users aren't dropped at the top of the page. */
  function onDeleted(id: number) {
    const index = all.findIndex((task) => task.id === id);
    const neighbour = all[index + 1] ?? all[index - 1];
    requestAnimationFrame(() => {
      const root = section.current;
      const target = neighbour ? root?.querySelector<HTMLElement>(`[data-task="${neighbour.id}"]`) : null;
      (target ?? root?.querySelector<HTMLElement>("[data-add-task]"))?.focus();
    });
  }

  /** The list shown went (left, or taken away): show every list, focus on All. */
  function onListGone() {
    changeView({ list: null });
    requestAnimationFrame(() => section.current?.querySelector<HTMLElement>('[data-list="All"]')?.focus());
  }

  const groupProps = {
    view,
    onTagPicked: (tag: string | null) => changeView({ tag }),
    onDeleted,
    onMoved: (id: number) => (moved.current = id),
  };

  return (
    <section className="tasks" aria-labelledby="tasks-heading" ref={section}>
      <div className="panel-header">
        <h2 id="tasks-heading" className="panel-title">
          Tasks
        </h2>
        {tasks.data && (
          <span className="muted small">
            {partial ? `${tasks.total} tasks` : `${pending.length} pending · ${completed.length} done`}
          </span>
        )}
      </div>
      <ListSwitcher selected={view.list} onSelect={(list) => changeView({ list })} />
      <ListSharingBar name={view.list} onGone={onListGone} />
      <TaskFilters view={view} onChange={changeView} />
      {editable && <AddTaskForm view={view} />}
      {/* Says what a switch or filter left in view, once its tasks have arrived. */}
      <p className="visually-hidden" aria-live="polite">
        {settled ? `${describeView(view)}: ${counted}` : ""}
      </p>
      {tasks.isPending && <p className="muted small">Loading tasks…</p>}
      {tasks.isError && !tasks.isFetchNextPageError && (
        <div className="panel-error">
          <p>Couldn't load your tasks. {describeError(tasks.error)}</p>
          <button type="button" className="button button-small" onClick={() => void tasks.refetch()}>
            Try again
          </button>
        </div>
      )}
      {tasks.data && (
        <div className="task-groups" aria-busy={tasks.isPlaceholderData}>
          <TaskGroup
            title="Pending"
            tasks={pending}
            empty={
              <NothingPending
                view={view}
                anyTasks={all.length > 0}
                onClear={clearFilters}
                readOnly={!editable}
              />
            }
            {...groupProps}
          />
          <TaskGroup
            title="Completed"
            tasks={completed}
            empty={<p>Nothing completed yet.</p>}
            {...groupProps}
          />
          {partial && (
            <MoreTasks
              loaded={all.length}
              total={tasks.total}
              loading={tasks.isFetchingNextPage}
              failed={tasks.isFetchNextPageError}
              automatic={!tasks.isFetchingNextPage && !tasks.isFetchNextPageError && !tasks.isPlaceholderData}
              onLoadMore={tasks.loadMore}
            />
          )}
        </div>
      )}
    </section>
  );
}
