import { NavLink } from "react-router";

/** The project's monitoring, one tab each: its traces, their sessions and users, and their dashboard. */
export function TracesTabs({ projectSlug }: { projectSlug: string }) {
  const base = `/projects/${projectSlug}/traces`;
  return (
    <nav aria-label="Monitoring" className="tabs">
      <NavLink to={base} end>
        Traces
      </NavLink>
      <NavLink to={`${base}/sessions`}>Sessions</NavLink>
      <NavLink to={`${base}/users`}>Users</NavLink>
      <NavLink to={`${base}/dashboard`}>Dashboard</NavLink>
    </nav>
  );
}
