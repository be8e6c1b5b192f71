/** Spinner: small, medium (default), large; accent-green by default (docs/requirements.md §9). */
export function Spinner({
  size = "medium",
  color = "accent-green",
  label,
}: {
  size?: "small" | "medium" | "large";
  color?: string;
  label?: string;
}) {
  return (
    <span className="spinner-wrap" role={label ? "status" : undefined}>
      <span
        className={`spinner spinner-${size}`}
        style={{ borderTopColor: `var(--color-${color})` }}
        aria-hidden="true"
      />
      {label ? <span className="spinner-label">{label}</span> : null}
    </span>
  );
}
