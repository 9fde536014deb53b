import { downloadDashcard } from '../api/dashboard-view';
import type { SentParameter } from '../api/dashboard-types';
import { notifyError } from '../notify';

/** A card menu's download: the dashcard's file, saved under the server's name; a failure is a notification. */
export async function saveDashcardFile(dashboardId: number, dashcardId: number, cardId: number, format: string, sent: SentParameter[]) {
  try {
    const file = await downloadDashcard(dashboardId, dashcardId, cardId, format, sent);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(file.blob);
    a.download = file.name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) {
    notifyError(e instanceof Error ? e : String(e));
  }
}
