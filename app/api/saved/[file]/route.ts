import { getAppContext } from '@/lib/server/app-context';
import { errorResponse } from '@/lib/server/http/http';
import { encodeOtlpJson } from '@/lib/spans/otlp-json';

export const dynamic = 'force-dynamic';

/** A saved file's spans as OTLP JSON (whatever format the file is in). */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  try {
    const { file } = await context.params;
    return Response.json(encodeOtlpJson(await getAppContext().store.loadSaved(decodeURIComponent(file))));
  } catch (error) {
    return errorResponse(error);
  }
}
