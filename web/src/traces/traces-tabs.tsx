import { NavLink } from "react-router";

/** The project's monitoring, one tab each: its traces and their dashboard. */
export function TracesTabs({ projectSlug }: { projectSlug: string }) {
  return (
    <nav aria-label="Monitoring" className="tabs">
      <NavLink to={`/projects/${projectSlug}/traces`} end>
        Traces
      </NavLink>
      <NavLink to={`/projects/${projectSlug}/traces/dashboard`}>Dashboard</NavLink>
    </nav>
  );
}
