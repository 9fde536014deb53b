/** Small line icons (no icon package is installed); decorative: the buttons that hold them carry the label. */
const Svg = ({ d }: { d: string }) => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    aria-hidden="true"
  >
    <path d={d} />
  </svg>
);

export const DragIcon = () => <Svg d="M12 3v18M3 12h18M12 3l-3 3M12 3l3 3M12 21l-3-3M12 21l3-3M3 12l3-3M3 12l3 3M21 12l-3-3M21 12l-3 3" />;
export const CopyIcon = () => <Svg d="M8 8h12v12H8zM4 16V4h12" />;
export const MoveIcon = () => <Svg d="M4 8h14l-4-4M20 16H6l4 4" />;
export const RemoveIcon = () => <Svg d="M6 6l12 12M18 6L6 18" />;
export const MoreIcon = () => <Svg d="M5 12h.01M12 12h.01M19 12h.01" />;
export const ExpandIcon = () => <Svg d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />;
export const ShrinkIcon = () => <Svg d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />;
export const ChevronIcon = () => <Svg d="M6 9l6 6 6-6" />;
export const SettingsIcon = () => <Svg d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4" />;
