import { readFile } from 'node:fs/promises';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-summary.js';

// `node dist/summarise-profile.js <file.cpuprofile> [top]`: where a profiled process spent its time.
const [file, top = '30'] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node dist/summarise-profile.js <file.cpuprofile> [top]\n');
  process.exit(2);
}
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
process.stdout.write(formatSummary(summariseProfile(profile), Number(top)));
