type Props = { opened: boolean; onClick: () => void; label: string; controls: string; className?: string };

export function Burger({ opened, onClick, label, controls, className }: Props) {
  return (
    <button
      type="button"
      className={`burger ${className ?? ''}`}
      data-opened={opened || undefined}
      aria-label={label}
      aria-expanded={opened}
      aria-controls={controls}
      onClick={onClick}
    >
      <span className="burger__lines" aria-hidden="true" />
    </button>
  );
}
