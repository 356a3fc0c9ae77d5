/**
 * allure-js-commons' Writer (a public interface of allure-js-commons/sdk/reporter), writing the
 * files its FileSystemWriter writes, with the same names and content, without fsync.
 *
 * FileSystemWriter writes every result, container and attachment to a temporary file, fsyncs it
 * and renames it. Reporters run in Playwright's runner process, which also hosts the embedded
 * mock: each fsync stalls the mock's answers too (about 0.4 s of a default run's runner time,
 * measured with npm run profile). Here each file is written once, whole, with one call (the
 * report is generated from them after the run, when the operating system has them), and an
 * attachment copied from a path is copied the same way.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';

export class UnsyncedWriter implements Writer {
  private created = false;
  private readonly resultsDir: string;
  constructor(resultsDir: string) {
    this.resultsDir = resultsDir;
  }

  private path(name: string): string {
    if (!this.created) {
      mkdirSync(this.resultsDir, { recursive: true });
      this.created = true;
    }
    return join(this.resultsDir, name);
  }

  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    writeFileSync(this.path(`${result.uuid}-result.json`), JSON.stringify(result), 'utf-8');
  }
  writeGroup(result: Parameters<Writer['writeGroup']>[0]): void {
    writeFileSync(this.path(`${result.uuid}-container.json`), JSON.stringify(result), 'utf-8');
  }
  writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(this.path(distFileName), content);
  }
  writeAttachmentFromPath(distFileName: string, from: string): void {
    copyFileSync(from, this.path(distFileName));
  }
  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void {
    writeFileSync(this.path('environment.properties'), stringifyEnvInfo(info));
  }
  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void {
    writeFileSync(this.path('categories.json'), JSON.stringify(categories), 'utf-8');
  }
  writeGlobals(distFileName: string, info: Parameters<Writer['writeGlobals']>[1]): void {
    writeFileSync(this.path(distFileName), JSON.stringify(info), 'utf-8');
  }
}
