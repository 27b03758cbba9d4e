/**
 * A finite state machine as data: for each state, the events it accepts and the state each one
 * leads to. An event a state does not list is not allowed there.
 */
export type StateMachine<S extends string, E extends string> = Readonly<
  Record<S, Readonly<Partial<Record<E, S>>>>
>;

/** The state `event` leads to from `state`, or null when the machine does not allow it there. */
export function transition<S extends string, E extends string>(
  machine: StateMachine<S, E>,
  state: S,
  event: E,
): S | null {
  return machine[state]?.[event] ?? null;
}

/** The events `state` accepts, in the order the machine lists them. */
export function eventsFrom<S extends string, E extends string>(machine: StateMachine<S, E>, state: S): E[] {
  return Object.keys(machine[state] ?? {}) as E[];
}
