// One export page of a given size, as the sandbox serves it (format 1 rows), recorded once into memory:
// the body the single-response bench replays and the scanner bench reads.
import { request } from 'undici';
import { openCliWorkspace } from './cliWorkspace';

export const EXPORT_PATH = '/api/Selection/GetSelectionResult_Ext';
const ROW_BYTES = 173; // about, for format 1 rows; the body's real size is measured

/** An export page of about `megabytes` MB, and its row count. */
export async function recordExportPage(megabytes: number): Promise<{ body: Buffer; rows: number }> {
  const rows = Math.ceil((megabytes * 1048576) / ROW_BYTES);
  const ws = await openCliWorkspace({ exportRows: rows, selectionPageRows: rows });
  try {
    const res = await request(`${ws.sandbox.descriptor.engagement.baseUrl}${EXPORT_PATH}`, {
      method: 'POST', headers: { authorization: `Bearer ${ws.rawEnv['APIWB_BENCH_TOKEN'] ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ OFFSET: 1, TableName: '' }),
    });
    return { body: Buffer.from(await res.body.arrayBuffer()), rows };
  } finally {
    await ws.close();
  }
}
