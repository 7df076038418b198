import type { GenerateResume } from '../../../loop/loop-model';
import type { ResumeContinuation } from '../read/recording';

/**
 * What a genkit recording needs of the graph's linking for one resume (genkit JS and Go alike):
 * the generate it continues, and the pendingOutput parts it reused, by `name#ref`.
 */
export function genkitContinuation(resumeOf: (generateId: string) => GenerateResume | undefined): (generateId: string) => ResumeContinuation | undefined {
  return (generateId) => {
    const resume = resumeOf(generateId);
    if (!resume) return undefined;
    const pendingOutputs = new Map<string, unknown>();
    for (const resolution of resume.resolutions) {
      if (resolution.kind === 'pending') pendingOutputs.set(`${resolution.request.name}#${resolution.request.ref ?? ''}`, resolution.output);
    }
    return { answersGenerateId: resume.answersGenerateId, pendingOutputs };
  };
}
