import type { Page, PageRequest, Todo, TodoAction, TodoState, TodoTargetType } from "@kiln/domain";
import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from "kysely";
import type { Database, TodosTable } from "../database.js";
import { now, paginate } from "../queries.js";
import { type ProjectReader, readableProjectIds } from "./project-scopes.js";

const toTodo = (row: Selectable<TodosTable>): Todo => ({
  ...row,
  target_type: row.target_type as TodoTargetType,
  action: row.action as TodoAction,
  state: row.state as TodoState,
});

/** An issue or merge request, as todos point at it. */
export interface TodoTarget {
  type: TodoTargetType;
  id: number;
}

/** What a new todo is made of; it starts pending. */
export type NewTodo = Pick<
  Todo,
  "user_id" | "project_id" | "target_type" | "target_id" | "action" | "author_id" | "note_id"
>;

/** Filters of a user's todo list. Undefined filters match everything. */
export interface TodoFilter {
  states?: readonly TodoState[] | undefined;
  actions?: readonly TodoAction[] | undefined;
  authorId?: number | undefined;
  projectId?: number | undefined;
  targetType?: TodoTargetType | undefined;
  /** Only todos in projects the user may still read (see {@link readableProjectIds}). */
  readableBy?: ProjectReader | undefined;
  /** Leaves out todos on these issues (confidential ones the user may no longer read). */
  hiddenIssueIds?: readonly number[] | undefined;
  /**
   * Leaves out todos on merge requests but those of projects open to the reader (as in
   * `readableBy`) or where the reader holds `minLevel` or more, and those the reader wrote or is
   * assigned to.
   */
  mergeRequestsReadableBy?: (ProjectReader & { minLevel: number }) | undefined;
}

/** Todos: what users are asked to look at. A user has at most one pending todo per target. */
export class TodoStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A todo by id. */
  async findById(id: number): Promise<Todo | undefined> {
    const row = await this.db.selectFrom("todos").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toTodo(row);
  }

  /** The user's todos of these ids, in id order (another user's are left out). */
  async findOwnByIds(userId: number, ids: readonly number[]): Promise<Todo[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom("todos")
      .selectAll()
      .where("user_id", "=", userId)
      .where("id", "in", [...new Set(ids)])
      .orderBy("id")
      .execute();
    return rows.map(toTodo);
  }

  /** The user's pending todo on a target, if any. */
  async findPending(userId: number, target: TodoTarget): Promise<Todo | undefined> {
    const row = await this.db
      .selectFrom("todos")
      .selectAll()
      .where("user_id", "=", userId)
      .where("target_type", "=", target.type)
      .where("target_id", "=", target.id)
      .where(sql<boolean>`state = 'pending'`)
      .executeTakeFirst();
    return row && toTodo(row);
  }

  /**
   * Creates a pending todo, or answers null when the user already has a pending todo on the target
   * (whatever its action). The database decides, so two concurrent creations make one todo.
   */
  async createPending(todo: NewTodo): Promise<Todo | null> {
    const at = now();
    const row = await this.db
      .insertInto("todos")
      .values({ ...todo, state: "pending", created_at: at, updated_at: at })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? toTodo(row) : null;
  }

  /** One page of a user's todos, filtered, newest first. */
  async list(userId: number, filter: TodoFilter, page: PageRequest): Promise<Page<Todo>> {
    const query = filtered(this.db, this.db.selectFrom("todos").selectAll(), userId, filter);
    if (!query) return { items: [], page: page.page, perPage: page.perPage, total: 0 };
    const { rows, total } = await paginate(this.db, query.orderBy("id", "desc"), page, "capped");
    return { items: rows.map(toTodo), page: page.page, perPage: page.perPage, total };
  }

  /**
   * The ids of the confidential issues the user's todos point at, whatever their state: the only
   * targets whose readability depends on more than the project (see `hiddenIssueIds`).
   */
  async confidentialIssueTargets(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("todos")
      .innerJoin("issues", "issues.id", "todos.target_id")
      .select("issues.id")
      .distinct()
      .where("todos.user_id", "=", userId)
      .where("todos.target_type", "=", "Issue")
      .where("issues.confidential", "=", 1)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Marks one of the user's todos done. Answers the todo (done, whether now or before), or
   * undefined when the user has no todo with this id.
   */
  async markDone(userId: number, id: number): Promise<Todo | undefined> {
    const row = await this.db
      .updateTable("todos")
      .set({ state: "done", updated_at: now() })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where(sql<boolean>`state = 'pending'`)
      .returningAll()
      .executeTakeFirst();
    if (row) return toTodo(row);
    const todo = await this.findById(id);
    return todo?.user_id === userId ? todo : undefined;
  }

  /** Marks the user's pending todos that pass the filter done; answers them, done. */
  async markAllDone(userId: number, filter: Omit<TodoFilter, "states"> = {}): Promise<Todo[]> {
    const ids = filtered(this.db, this.db.selectFrom("todos").select("id"), userId, filter);
    if (!ids) return [];
    const rows = await this.db
      .updateTable("todos")
      .set({ state: "done", updated_at: now() })
      .where("id", "in", ids.where(sql<boolean>`state = 'pending'`))
      .returningAll()
      .execute();
    return rows.map(toTodo);
  }

  /** Everyone's pending todos on a target, in id order (before it is deleted, to tell their owners). */
  async pendingOnTarget(target: TodoTarget): Promise<Todo[]> {
    const rows = await this.db
      .selectFrom("todos")
      .selectAll()
      .where("target_type", "=", target.type)
      .where("target_id", "=", target.id)
      .where(sql<boolean>`state = 'pending'`)
      .orderBy("id")
      .execute();
    return rows.map(toTodo);
  }

  /**
   * Marks the pending todos on a target done: those of `userIds`, or everyone's when not given.
   * Answers the todos it marked (their owners are to be told).
   */
  markDoneForTarget(target: TodoTarget, userIds?: readonly number[]): Promise<Todo[]> {
    return this.markDoneWhere(target, userIds, undefined);
  }

  /** Marks the pending todos of one action on a target done (`build_failed` ones once a build passes); answers them. */
  markActionDoneForTarget(target: TodoTarget, action: TodoAction): Promise<Todo[]> {
    return this.markDoneWhere(target, undefined, action);
  }

  private async markDoneWhere(
    target: TodoTarget,
    userIds: readonly number[] | undefined,
    action: TodoAction | undefined,
  ): Promise<Todo[]> {
    if (userIds !== undefined && userIds.length === 0) return [];
    let query = this.db
      .updateTable("todos")
      .set({ state: "done", updated_at: now() })
      .where("target_type", "=", target.type)
      .where("target_id", "=", target.id)
      .where(sql<boolean>`state = 'pending'`);
    if (userIds !== undefined) query = query.where("user_id", "in", [...new Set(userIds)]);
    if (action !== undefined) query = query.where("action", "=", action);
    const rows = await query.returningAll().execute();
    return rows.map(toTodo);
  }
}

/** The user's todos that pass the filter, or null when none can. */
function filtered<O>(
  db: Kysely<Database>,
  query: SelectQueryBuilder<Database, "todos", O>,
  userId: number,
  filter: TodoFilter,
): SelectQueryBuilder<Database, "todos", O> | null {
  let result = query.where("user_id", "=", userId);
  if (filter.states !== undefined) {
    if (filter.states.length === 0) return null;
    result = result.where("state", "in", [...new Set(filter.states)]);
  }
  if (filter.actions !== undefined) {
    if (filter.actions.length === 0) return null;
    result = result.where("action", "in", [...new Set(filter.actions)]);
  }
  if (filter.authorId !== undefined) result = result.where("author_id", "=", filter.authorId);
  if (filter.projectId !== undefined) result = result.where("project_id", "=", filter.projectId);
  if (filter.targetType !== undefined) result = result.where("target_type", "=", filter.targetType);
  if (filter.readableBy !== undefined) {
    result = result.where("project_id", "in", readableProjectIds(db, filter.readableBy));
  }
  if (filter.hiddenIssueIds !== undefined && filter.hiddenIssueIds.length > 0) {
    const hidden = [...new Set(filter.hiddenIssueIds)];
    result = result.where((eb) =>
      eb.or([eb("target_type", "!=", "Issue"), eb("target_id", "not in", hidden)]),
    );
  }
  const reader = filter.mergeRequestsReadableBy;
  if (reader !== undefined) {
    result = result.where((eb) =>
      eb.or([
        eb("target_type", "!=", "MergeRequest"),
        eb("project_id", "in", readableProjectIds(db, reader, reader.minLevel)),
        eb.exists(
          eb
            .selectFrom("merge_requests as mr")
            .select(sql<number>`1`.as("one"))
            .whereRef("mr.id", "=", "todos.target_id")
            .where((mr) =>
              mr.or([mr("mr.author_id", "=", reader.userId), mr("mr.assignee_id", "=", reader.userId)]),
            ),
        ),
      ]),
    );
  }
  return result;
}
