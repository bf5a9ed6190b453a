/**
 * The address of a task's detail on the Tasks screen (`#tasks/<key>`), for every link into it: a
 * task's key is `received:<taskId>` or `requested:<outboundId>`, as History's ids are. Whichever
 * screen the link is on, and however far down it is scrolled, the detail opens with its heading
 * focused at the top of the view (see `TaskDetail`, which brings it there with `focusInSight`).
 */
export function taskDetailHref(key: string): string {
  return `#tasks/${encodeURIComponent(key)}`;
}

/** The key of a tool-call task Taskdesk requested, by its outbound id. */
export function requestedTaskKey(outboundId: string): string {
  return `requested:${outboundId}`;
}
