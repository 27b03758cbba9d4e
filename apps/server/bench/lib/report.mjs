// Medians, ratios against the in-run baselines, targets, and the printed table.

const median = (values) => {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The median of every figure over a case's reps (each figure on its own, as in performance.md). */
export function summarise(kase) {
  const pick = (key) => median(kase.reps.map((rep) => rep[key]));
  const rps = kase.reps.map((rep) => rep.rps);
  return {
    rps: pick("rps"),
    rpsMin: Math.min(...rps),
    rpsMax: Math.max(...rps),
    p50: pick("p50"),
    p90: pick("p90"),
    p99: pick("p99"),
    cpuUsPerReq: pick("cpuUsPerReq"),
    serverCpuS: pick("serverCpuS"),
    wrkCpuS: pick("wrkCpuS"),
    foreignCpuS: pick("foreignCpuS"),
    bytesPerRequest: pick("bytesPerRequest"),
    errors: kase.reps.reduce((sum, rep) => sum + rep.non2xx + rep.socketErrors, 0),
  };
}

/**
 * The targets: Kiln as a fraction of the baseline doing the same job in the same run. Throughput
 * ratios decide PASS/FAIL; the CPU ratio (baseline CPU-µs/req ÷ Kiln's) is the portable cross-check.
 */
export function evaluate(summaries) {
  const ratio = (kiln, base, target, label, informational = false) => {
    const k = summaries[kiln];
    const b = summaries[base];
    if (!k || !b) return null;
    const value = k.rps / b.rps;
    return {
      label,
      kiln,
      baseline: base,
      value,
      cpuRatio: b.cpuUsPerReq / k.cpuUsPerReq,
      target,
      informational,
      pass: value >= target,
    };
  };
  const checks = [
    ratio("user", "bare", 0.5, "GET /user ÷ bare node:http"),
    ratio("users", "raw", 0.6, "GET /users p1 ÷ raw SQL list"),
    ratio("users2", "raw", 0.6, "GET /users p2 ÷ raw SQL list p1", true),
    ratio("user_info", "bare", 0.5, "GET /user (LOG_LEVEL=info) ÷ bare node:http", true),
    ratio("users_info", "raw", 0.6, "GET /users p1 (LOG_LEVEL=info) ÷ raw SQL list", true),
    ratio("projects_all", "raw_projects", 0.6, "GET /projects/all p1 ÷ raw SQL projects", true),
    ratio("projects_all2000", "raw_projects2000", 0.6, "GET /projects/all deep ÷ raw SQL deep", true),
    ratio("projects_member", "raw_projects", 0.6, "GET /projects (member of 20) ÷ raw SQL p1", true),
    ratio("projects_root", "raw_projects", 0.6, "GET /projects (root) ÷ raw SQL projects p1", true),
    // Issue 5: lists ≥ 0.50 × performance.md's raw list figure, creation ≥ 0.50 × the raw insert.
    ratio("issues_list_state", "raw_issues_list", 0.5, "GET issues?state=opened (100k) ÷ raw list"),
    ratio("issues_list_label", "raw_issues_list", 0.5, "GET issues?state&labels (100k) ÷ raw list"),
    ratio("issues_create", "raw_issues_insert", 0.5, "POST issues ÷ raw SQL insert"),
    ratio("issues_list_state", "raw_issues_list_state", 0.5, "GET issues?state=opened ÷ same SQL raw", true),
    ratio("issues_list_label", "raw_issues_list_label", 0.5, "GET issues?state&labels ÷ same SQL raw", true),
    // What the raw list's figure leaves out: the same v3 answer as Kiln's, written by hand.
    ratio("raw_issues_list_v3", "raw_issues_list", 0.5, "raw v3 answer by hand ÷ raw list", true),
    ratio("issues_list_state", "raw_issues_list_v3", 0.5, "GET issues?state=opened ÷ raw v3 answer", true),
  ].filter((check) => check !== null);
  const judged = ["user", "users"];
  const issueLatency = ["issues_list_state", "issues_list_label"]
    .filter((id) => summaries[id])
    .map((id) => ({
      label: `p99 < 30 ms at 50 connections: ${id}`,
      kiln: id,
      value: summaries[id].p99,
      target: 30,
      informational: false,
      pass: summaries[id].p99 < 30,
    }));
  const latency = [
    "user",
    "users",
    "users2",
    "user_info",
    "users_info",
    "projects_root",
    "projects_member",
    "projects_all",
    "projects_all2000",
  ]
    .filter((id) => summaries[id])
    .map((id) => ({
      label: `p99 < 20 ms at 50 connections: ${id}`,
      kiln: id,
      value: summaries[id].p99,
      target: 20,
      informational: !judged.includes(id),
      pass: summaries[id].p99 < 20,
    }));
  return { ratios: checks, latency: [...latency, ...issueLatency] };
}

const fmt = (value, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value)
    ? "–"
    : value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])));
  return [
    line(header).join("  "),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map((r) => line(r).join("  ")),
  ].join("\n");
}

/** The printed report: one row per case, then the ratios and targets. */
export function render(cases, summaries, verdict, config) {
  const rows = cases.map((kase) => {
    const s = summaries[kase.id];
    return [
      kase.label,
      fmt(s.rps),
      `${fmt(s.rpsMin)}–${fmt(s.rpsMax)}`,
      fmt(s.p50, 2),
      fmt(s.p90, 2),
      fmt(s.p99, 2),
      fmt(s.cpuUsPerReq, 1),
      fmt(s.serverCpuS, 1),
      fmt(s.wrkCpuS, 1),
      fmt(s.foreignCpuS, 2),
      fmt(s.bytesPerRequest),
      s.errors === 0 ? "0" : `${s.errors} !`,
    ];
  });
  const header = [
    `case (wrk -t1 -c${config.connections} -d${config.seconds}s, median of ${config.reps})`,
    "req/s",
    "range",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "CPU-µs/req",
    "srv CPU-s",
    "wrk CPU-s",
    "other CPU-s",
    "bytes/resp",
    "errors",
  ];
  const mark = (check) => (check.pass ? "PASS" : "FAIL") + (check.informational ? " (info only)" : "");
  const lines = ["", table(header, rows), ""];
  for (const r of verdict.ratios) {
    lines.push(
      `${r.label.padEnd(50)} ${fmt(r.value, 2).padStart(5)}  (target ≥ ${r.target.toFixed(2)})  ${mark(r)}` +
        `   CPU/req ratio ${fmt(r.cpuRatio, 2)}`,
    );
  }
  for (const l of verdict.latency) {
    lines.push(`${l.label.padEnd(50)} ${fmt(l.value, 2).padStart(5)} ms            ${mark(l)}`);
  }
  return lines.join("\n");
}
