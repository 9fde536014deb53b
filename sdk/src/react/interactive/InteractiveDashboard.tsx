import { useState } from 'react';
import { buttonStyle } from '../CardView';
import { StaticDashboard, type StaticDashboardProps } from '../StaticDashboard';
import { InteractiveQuestion } from './InteractiveQuestion';

export type InteractiveDashboardProps = Omit<StaticDashboardProps, 'onCardClick'>;

/** A dashboard whose charts drill through: a click on a card opens its question, to explore, with a way back. */
export function InteractiveDashboard(props: InteractiveDashboardProps) {
  const [drilled, setDrilled] = useState<number | null>(null);
  return (
    <div data-testid="analytics-interactive-dashboard">
      {drilled !== null && (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8, height: 480 }}>
          <div>
            <button type="button" data-testid="analytics-back" onClick={() => setDrilled(null)} style={buttonStyle}>
              ← Back to the dashboard
            </button>
          </div>
          <InteractiveQuestion questionId={drilled} />
        </div>
      )}
      <div style={{ display: drilled === null ? undefined : 'none' }}>
        <StaticDashboard {...props} onCardClick={(dc) => dc.card_id && setDrilled(dc.card_id)} />
      </div>
    </div>
  );
}
